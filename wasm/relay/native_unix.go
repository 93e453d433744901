//go:build unix

package relay

import (
	"os/signal"
	"syscall"
)

// ignoreBrokenPipe keeps the native host alive when Chrome has closed its
// end of stdout or stderr: a write then fails (and the host cleans up)
// instead of SIGPIPE ending the process.
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }
