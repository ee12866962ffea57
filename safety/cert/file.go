package cert

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// WriteFile writes c to the file path, gzip-compressed when path ends in
// .gz (Read takes both). The certificate is encoded as it is written (see
// Encoder); on an error an older file of that name is kept (see Create).
func WriteFile(path string, c *Certificate) error {
	if err := validate(c); err != nil {
		return err
	}
	f, err := Create(context.Background(), path)
	if err != nil {
		return err
	}
	if err := Write(f, c); err != nil {
		f.Abort()
		return err
	}
	return f.Close()
}

// File is a certificate file being written, gzip-compressed when its path
// ends in .gz. Write to it (an Encoder's writer), then Close it, or Abort
// it on an error.
//
// A certificate whose path names a regular file, or nothing yet, is
// written to a temporary file in the same directory
// (".NAME.vigil-tmp-PID-RANDOM.tmp", PID the writer's process id;
// created as a plain create would create NAME: mode 0666 less the umask,
// or the old file's mode and owner), which Close renames over the path once the
// whole certificate is written, synced and closed: no name ever shows a
// half-written certificate, whatever ends the process. A write that fails
// or is stopped (Abort) removes the temporary file and leaves the older
// certificate of that name as it was; so does a signal that ends the
// process (RemoveTemps). One that cannot be caught (SIGKILL, a crash of
// the machine) leaves the temporary file behind: Create removes such a
// stale temporary file of the same NAME when it is the user's, its
// process is gone and it has not changed for an hour (removeStale). A
// file with other hard links is replaced the same way: NAME gets the new
// certificate, the other names keep the old one, whole (writing in place
// would show a half-written certificate under every name). A symbolic
// link is followed: the temporary file goes beside the link's final
// target and is renamed over the target, so the link stays and still
// names the new certificate; on a failure the target keeps its old
// contents. The rename is made in the directory opened at Create
// (renameat): a directory moved meanwhile gets the certificate, as a file
// written in place would. A target that cannot be renamed over (a mount
// point: a file bind-mounted into a container) gets the whole temporary
// file copied into it.
//
// A regular file (or a new one) whose directory does not take the
// temporary file (no write permission, a read-only file system) is not
// written: Create fails with an error that names the file and the
// directory and says what to do (before session 30 it was written in
// place, and a process killed meanwhile left a half-written certificate
// under its name); so does one whose owner the temporary file cannot be
// given (replacing it would hand it to another user).
//
// Written in place: a device (/dev/stdout, /dev/null, /dev/full), a pipe
// or FIFO, and anything reached through /dev or /proc. On a failure Abort
// then leaves a device or a pipe alone (a regular file reached through
// /proc is emptied). A FIFO is opened without blocking:
// until a reader opens it, Create waits, and returns when ctx ends with
// an error that wraps ctx.Err(); a write blocked on a full FIFO ends when
// ctx does, with ctx.Err(). A pipe whose reader has gone (vigil verify
// --cert /dev/stdout | head) fails the write with EPIPE, and the report
// that follows on stdout ends the process by SIGPIPE, quietly, as any
// command whose stdout is closed (exit status 141 in a shell).
type File struct {
	f    *os.File
	zw   *gzip.Writer // nil: not compressed
	w    io.Writer
	path string
	ctx  context.Context
	// tmp, when set, is the temporary file f is, renamed over target by
	// Close; both are in the directory dir, by their base names
	// tmpBase and targetBase (the directory may be renamed meanwhile:
	// the certificate then ends up in it, as os.Create's would)
	tmp, target         string
	dir                 *os.File
	tmpBase, targetBase string
	// regular: f is a regular file written in place, which a failed
	// write may remove (a certificate "file" may be /dev/stdout,
	// /dev/null or a pipe, which a failure must leave alone: os.Remove of
	// /dev/stdout or /dev/full as root deleted the device's name)
	regular bool
	stop    func() bool // ends the wake-up of a FIFO's blocked writes
	done    bool
}

// Create creates the certificate file path, compressed when path ends in
// .gz. See File for where it is written, and what ctx ends.
func Create(ctx context.Context, path string) (*File, error) {
	return create(ctx, path, strings.HasSuffix(path, ".gz"))
}

// CreatePlain creates the file path as Create does, never compressed: a
// certificate of another format (vigil verify's SMT-LIB2 invariants)
// with File's care for what path names.
func CreatePlain(ctx context.Context, path string) (*File, error) { return create(ctx, path, false) }

func create(ctx context.Context, path string, compress bool) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cf := &File{path: path, ctx: ctx}
	if target, old, ok := replaceable(path); ok {
		f, dir, err := createTemp(target, old)
		if err != nil {
			return nil, tempError(path, target, err)
		}
		cf.f, cf.tmp, cf.target = f, f.Name(), target
		cf.dir, cf.tmpBase, cf.targetBase = dir, filepath.Base(f.Name()), filepath.Base(target)
	}
	if cf.f == nil {
		f, err := openInPlace(ctx, path)
		if err != nil {
			return nil, err
		}
		cf.f = f
		if st, err := f.Stat(); err == nil {
			cf.regular = st.Mode().IsRegular()
			if st.Mode()&fs.ModeNamedPipe != 0 {
				// Go polls a FIFO opened non-blocking: a deadline
				// ends a write that waits for the reader
				cf.stop = context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
			}
		}
	}
	cf.w = cf.f
	if compress {
		cf.zw = gzip.NewWriter(cf.f)
		cf.w = cf.zw
	}
	return cf, nil
}

func (f *File) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	return n, f.fix(err)
}

// fix makes err name the path asked for, not the temporary file, and
// the error of a FIFO's write that a stop ended ctx's.
func (f *File) fix(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, os.ErrDeadlineExceeded) && f.ctx.Err() != nil {
		return f.ctx.Err()
	}
	var pe *fs.PathError
	if f.tmp != "" && errors.As(err, &pe) && pe.Path == f.tmp {
		return &fs.PathError{Op: pe.Op, Path: f.path, Err: pe.Err}
	}
	return err
}

// Close ends the compressed stream, if any, and closes the file; a
// temporary file is synced to the disk first, then renamed over the path
// (see File). On an error what was written is discarded (Abort's care).
func (f *File) Close() error {
	if f.done {
		return errors.New("cert: File closed twice")
	}
	var err error
	if f.zw != nil {
		err = f.zw.Close()
	}
	if err == nil && f.tmp != "" {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.discard()
		return f.fix(err)
	}
	f.done = true
	if f.stop != nil {
		f.stop()
	}
	if f.tmp == "" {
		return nil
	}
	defer f.dir.Close()
	defer untrack(f.tmp)
	dfd := int(f.dir.Fd())
	err = renameAt(dfd, f.tmpBase, dfd, f.targetBase)
	if errors.Is(err, unix.EBUSY) || errors.Is(err, unix.EXDEV) {
		// the target is a mount point (a file bind-mounted into a
		// container): the whole certificate is copied into it
		err = f.copyOver(dfd)
	}
	if err != nil {
		unix.Unlinkat(dfd, f.tmpBase, 0)
		return &fs.PathError{Op: "write", Path: f.path, Err: underlying(err)}
	}
	f.dir.Sync() // the rename too, where the file system allows
	return nil
}

// copyOver copies the closed, whole temporary file into the target in
// place and removes it; on an error the target is emptied (no
// half-written certificate).
func (f *File) copyOver(dfd int) error {
	src, err := openAt(dfd, f.tmpBase, os.O_RDONLY)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openAt(dfd, f.targetBase, os.O_WRONLY|os.O_TRUNC)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if err != nil {
		dst.Truncate(0)
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		unix.Unlinkat(dfd, f.tmpBase, 0)
	}
	return err
}

// removeFile is os.Remove (tests replace it).
var removeFile = os.Remove

// renameAt is unix.Renameat (tests replace it).
var renameAt = unix.Renameat

// openAt opens the file name in the directory dfd.
func openAt(dfd int, name string, flag int) (*os.File, error) {
	fd, err := unix.Openat(dfd, name, flag|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// Abort closes the file and discards what was written (a certificate
// that could not be written whole must not be left behind half-written):
// the temporary file is removed, and the older file of that name stays;
// see File for what is written in place.
func (f *File) Abort() { f.discard() }

// discard closes f and removes what was written: the temporary file; or,
// written in place, the file when path still names it (not a symbolic
// link to it, whose target is emptied instead, leaving the link); a
// device or a pipe is left alone.
func (f *File) discard() {
	if f.done {
		return
	}
	f.done = true
	if f.stop != nil {
		f.stop()
	}
	defer f.f.Close()
	if f.tmp != "" {
		f.f.Close()
		unix.Unlinkat(int(f.dir.Fd()), f.tmpBase, 0)
		untrack(f.tmp)
		f.dir.Close()
		return
	}
	if !f.regular {
		return
	}
	st, err := f.f.Stat()
	lst, lerr := os.Lstat(f.path)
	if err == nil && lerr == nil && os.SameFile(st, lst) && removeFile(f.path) == nil {
		return
	}
	// a link's target; or a file whose directory does not let it be
	// removed (written in place for that reason): the half-written
	// certificate stayed under FILE
	f.f.Truncate(0)
}

// replaceable resolves path's symbolic links (40 at most, as the kernel)
// to the file a temporary file can replace: a regular file (with any
// number of hard links), or no file yet, outside /dev and /proc
// (/dev/stdout is a link to /proc/self/fd/1, which names the file the
// shell redirected stdout to: replacing that file would lose the rest of
// stdout). old is the file
// replaced, nil when none.
func replaceable(path string) (target string, old os.FileInfo, ok bool) {
	p := path
	for range 40 {
		if dirLike(p) {
			// "d/" names the directory d (os.Create's error says so);
			// filepath.Base("d/") is "d", and the certificate went to d/d
			return "", nil, false
		}
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return "", nil, false
		}
		if dir, err = filepath.Abs(dir); err != nil {
			return "", nil, false
		}
		for _, sys := range []string{"/dev", "/proc"} {
			if dir == sys || strings.HasPrefix(dir, sys+"/") {
				return "", nil, false
			}
		}
		p = filepath.Join(dir, filepath.Base(p))
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return p, nil, true
		case err != nil:
			return "", nil, false
		case fi.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return "", nil, false
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(dir, link)
			}
			p = link
			continue
		case !fi.Mode().IsRegular():
			return "", nil, false
		}
		if syscall.Access(p, 2 /* W_OK */) != nil {
			return "", nil, false // os.Create's error says why
		}
		return p, fi, true
	}
	return "", nil, false
}

// dirLike reports whether p can only name a directory: it ends in a
// slash, or in "." or "..".
func dirLike(p string) bool {
	b := filepath.Base(p)
	return strings.HasSuffix(p, "/") || b == "." || b == ".."
}

// tempError is the error of a certificate whose temporary file (beside
// target, the file path resolves to) could not be created: err,
// createTemp's, naming path, never the temporary file. Where the
// directory refuses it (no permission, a read-only file system) or the
// temporary file cannot have the old file's owner, it says what to do:
// the certificate is not written in place (see File).
func tempError(path, target string, err error) error {
	var own *ownerError
	dir := filepath.Dir(target)
	switch {
	case errors.As(err, &own):
		return fmt.Errorf("cannot replace %s: a certificate is written whole to a temporary file beside it, renamed over it, and the temporary file cannot be given the owner and mode of the file there now (%v); remove %s first, or write the certificate to another file", path, underlying(own.err), path)
	case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS):
		return &fs.PathError{Op: "open", Path: path, Err: &dirError{dir: dir, err: underlying(err)}}
	}
	// a full disk (no inode for the temporary file), too many open
	// files: os.Create would have truncated the older certificate,
	// then failed on its write
	return &fs.PathError{Op: "open", Path: path, Err: underlying(err)}
}

// dirError says that a certificate's directory refused its temporary
// file, and what to do.
type dirError struct {
	dir string
	err error
}

func (e *dirError) Error() string {
	return fmt.Sprintf("%v: the directory %s does not let vigil create the temporary file that the certificate is written to, then renamed over it (so that no half-written certificate is ever left under its name); make %s writable, or give a file in a writable directory", e.err, e.dir, e.dir)
}

func (e *dirError) Unwrap() error { return e.err }

// ownerError is an error of giving the temporary file the replaced
// file's owner or mode.
type ownerError struct{ err error }

func (e *ownerError) Error() string { return e.err.Error() }
func (e *ownerError) Unwrap() error { return e.err }

// underlying is err without the path of the temporary file it names.
func underlying(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// openTemp opens a temporary file (os.OpenFile; tests replace it).
var openTemp = os.OpenFile

// createTemp creates the temporary file that replaces target: beside it,
// with mode 0666 less the umask (the kernel applies it, as to a plain
// create), or the mode and owner of old, the file it replaces. d is
// their directory, open (Close renames in it, wherever it is then).
func createTemp(target string, old os.FileInfo) (tmp, d *os.File, err error) {
	dir, base := filepath.Split(target)
	if d, err = os.Open(dir); err != nil {
		return nil, nil, err
	}
	if tmp, err = createTempIn(dir, base, old); err != nil {
		d.Close()
		return nil, nil, err
	}
	return tmp, d, nil
}

func createTempIn(dir, base string, old os.FileInfo) (*os.File, error) {
	prefix := tempPrefix(base)
	removeStale(dir, prefix)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf("%s%d-%x.tmp", prefix, os.Getpid(), rand.Uint64()))
		f, err := openTemp(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		track(name)
		if old != nil {
			if err = sameAs(f, old); err != nil {
				f.Close()
				os.Remove(name)
				untrack(name)
				return nil, &ownerError{err}
			}
		}
		return f, nil
	}
	return nil, fs.ErrExist
}

// tempPrefix is the start of the names of the temporary files of a
// certificate named base: ".BASE.vigil-tmp-", followed by the writer's
// process id, a dash, a random number and ".tmp".
func tempPrefix(base string) string {
	if len(base) > 100 {
		base = base[:100] // a long name plus the suffix must fit NAME_MAX
	}
	return "." + base + ".vigil-tmp-"
}

// staleAge is how long a temporary file of a certificate must have been
// left unchanged before removeStale takes it for stale (a writer on
// another machine sharing the directory writes on, or is gone).
const staleAge = time.Hour

// removeStale removes the temporary files named prefix+PID-RANDOM.tmp in dir
// that a vigil killed while writing the certificate left behind (SIGKILL
// cannot be caught, and RemoveTemps never ran): those that are regular
// files of the user's own, whose process PID no longer runs on this
// machine, and that have not changed for staleAge. A file of another
// user, of a process still running (or of another process with its pid
// since), or changed recently is left alone; errors are ignored (the
// certificate is written all the same).
func removeStale(dir, prefix string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok || !strings.HasSuffix(rest, ".tmp") {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		p := filepath.Join(dir, n)
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < staleAge {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			continue // running (or not ours to signal: EPERM)
		}
		os.Remove(p)
	}
}

// sameAs gives f the owner and permissions of old, as a create that
// truncates old would keep them. The owner f has is its own, not the
// process's: in a setgid directory a new file takes the directory's
// group, and a certificate of mode 0640 whose group was the user's own
// was handed to the directory's group.
func sameAs(f *os.File, old os.FileInfo) error {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		uid, gid := os.Getuid(), os.Getgid()
		if fi, err := f.Stat(); err == nil {
			if ts, ok := fi.Sys().(*syscall.Stat_t); ok {
				uid, gid = int(ts.Uid), int(ts.Gid)
			}
		}
		if int(st.Uid) != uid || int(st.Gid) != gid {
			if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
				return err
			}
		}
	}
	return f.Chmod(old.Mode().Perm())
}

// openInPlace opens path for writing in place: os.Create, or a FIFO
// opened without blocking (see openFIFO).
func openInPlace(ctx context.Context, path string) (*os.File, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return openFIFO(ctx, path)
	}
	return os.Create(path)
}

// fifoPoll is how often openFIFO tries again to open a FIFO that has no
// reader.
const fifoPoll = 50 * time.Millisecond

// openFIFO opens the FIFO path for writing once it has a reader: an open
// that blocks (as os.Create's does) ignores Ctrl-C and --timeout for as
// long as nobody reads, so it opens non-blocking (ENXIO while there is no
// reader) every fifoPoll until it succeeds or ctx ends.
func openFIFO(ctx context.Context, path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil || !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		t := time.NewTimer(fifoPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("open %s: waited for a reader of the FIFO: %w", path, ctx.Err())
		case <-t.C:
		}
	}
}

// temps are the temporary files being written, removed by RemoveTemps.
var temps struct {
	sync.Mutex
	m map[string]bool
}

func track(name string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.m == nil {
		temps.m = map[string]bool{}
	}
	temps.m[name] = true
}

func untrack(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.m, name)
}

// RemoveTemps removes the temporary files of the certificates being
// written: call it when the process ends before they are closed (a
// second Ctrl-C exits at once), so that none is left behind.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.m {
		os.Remove(name)
		delete(temps.m, name)
	}
}

// Stopping returns a writer that writes to w until ctx ends, then fails
// with ctx.Err() (which stays: a stop while a certificate is written is
// told from a write error by errors.Is(err, ctx.Err())). Put a buffer
// above it: ctx is then checked once a buffer, not once a small write.
func Stopping(ctx context.Context, w io.Writer) io.Writer { return &stopWriter{ctx, w} }

type stopWriter struct {
	ctx context.Context
	w   io.Writer
}

func (s *stopWriter) Write(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.w.Write(p)
}
