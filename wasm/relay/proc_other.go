//go:build unix && !linux

package relay

import "syscall"

func setParentDeathSignal(*syscall.SysProcAttr) {}
