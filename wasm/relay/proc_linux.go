package relay

import "syscall"

// setParentDeathSignal has Linux kill the browser if the relay dies without
// closing it (kill -9).
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
