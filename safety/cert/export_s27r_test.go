package cert

import "os"

// SetOpenTemp replaces the opening of temporary files (tests of a
// failed create), returning the function that puts it back.
func SetOpenTemp(f func(string, int, os.FileMode) (*os.File, error)) func() {
	old := openTemp
	openTemp = f
	return func() { openTemp = old }
}

// SetRenameAt replaces the rename of a temporary file over its target,
// returning the function that puts it back.
func SetRenameAt(f func(int, string, int, string) error) func() {
	old := renameAt
	renameAt = f
	return func() { renameAt = old }
}

// SetRemoveFile replaces the removal of a file written in place,
// returning the function that puts it back.
func SetRemoveFile(f func(string) error) func() {
	old := removeFile
	removeFile = f
	return func() { removeFile = old }
}
