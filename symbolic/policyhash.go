package symbolic

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
)

// PolicyFilesHash returns the SHA-256 of the files policy d reads (its
// network, ensemble or table file, then its interface file, each prefixed
// by its length in decimal and a NUL byte), or "" when it reads none
// (rules, or no policy). Certificates record it, so that a checker can
// tell a retrained or replaced policy file from the one a proof was made
// for.
func PolicyFilesHash(d *PolicyDecl) (string, error) {
	if d == nil || (d.File == "" && d.Interface == "") {
		return "", nil
	}
	h := sha256.New()
	for _, f := range []string{d.File, d.Interface} {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("policy %s: %v", d.Name, err)
		}
		fmt.Fprintf(h, "%d\x00", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
