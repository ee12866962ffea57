package batch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Self is the vigil executable that runs are made with (Options.Self,
// SlurmOptions.Self) when this program is vigil: the program as invoked,
// as an absolute path, without resolving symbolic links, so that a link
// named vigil still is vigil.
func Self() string { return selfPath(os.Args[0]) }

// selfPath is the absolute path of the program invoked as arg0: a path
// (with a slash) made absolute, a name looked up in $PATH, else
// os.Executable.
func selfPath(arg0 string) string {
	if strings.Contains(arg0, "/") {
		if p, err := filepath.Abs(arg0); err == nil {
			return p
		}
	} else if p, err := exec.LookPath(arg0); err == nil {
		if p, err := filepath.Abs(p); err == nil {
			return p
		}
	}
	p, _ := os.Executable()
	return p
}
