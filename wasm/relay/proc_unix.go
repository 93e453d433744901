//go:build unix

package relay

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup starts the browser in a process group of its own, so that
// killGroup reaches its helper processes and a Ctrl-C in the terminal reaches
// only the relay, which then closes the browser itself.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup kills the browser's process group and waits (a few seconds at
// most) until none of its processes is left, so that the relay returns only
// once Chromium is entirely gone.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGKILL)
	for i := 0; i < 500 && syscall.Kill(-pgid, 0) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
}
