//go:build unix

package relay

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the browser in a process group of its own, so that
// killGroup reaches its helper processes and a Ctrl-C in the terminal reaches
// only the relay, which then closes the browser itself.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
