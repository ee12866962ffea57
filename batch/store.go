package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// The data directory of an experiment:
//
//	experiment.json            the experiment's name: a directory written by
//	                           another experiment is refused
//	runs/ALGO/DOMAIN/PROBLEM[/REP]/
//	    command                the command line, one argument per line
//	    stdout, stderr         the run's logs
//	    properties             the result (JSON), written last and atomically;
//	                           its presence means the run is finished
//
// Every name in a run's path is one plain path component (exp.go's
// badName), and before a batch writes or deletes anything, Within checks
// that each path of each run (its directory, lock, properties, command,
// stdout and stderr) lies inside the data directory, no symbolic link
// leading out of it included. The arguments a run passes to vigil are
// not confined: they are the experiment's commands (verify --cert FILE
// writes FILE wherever it says).
//
// A run is finished exactly when its properties file exists: it is written
// to a temporary file, synced and renamed into place, so a crash (kill -9,
// power loss) leaves either no properties or complete ones.

const (
	identityFile   = "experiment.json"
	propertiesFile = "properties"
)

type identity struct {
	Name string `json:"name"`
	File string `json:"file"`
	Tool string `json:"tool"`
}

// RunDir is the directory of a run.
func (x *Experiment) RunDir(r *Run) string {
	return filepath.Join(x.Data, "runs", filepath.FromSlash(r.ID))
}

// Within checks that path, which the batch is about to write or delete,
// lies inside the data directory: its cleaned form is below it, and none
// of its parts that exist is a symbolic link leading out of it (a link
// whose target is missing is refused too: writing through it would create
// the target). The parts that do not exist yet cannot be links, so what
// the batch then creates stays inside. The check is made before each
// write; a link planted between the check and the write by a process
// racing the batch is not guarded against.
func (x *Experiment) Within(path string) error {
	root, err := filepath.Abs(x.Data)
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	p, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("batch: %s lies outside the data directory %s: refusing to write it (check the experiment's names)", path, x.Data)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing below it exists yet
	}
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("batch: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(cur)
		if err != nil {
			return fmt.Errorf("batch: %s is a symbolic link whose target cannot be resolved (%v): remove it; the batch writes only inside the data directory %s", cur, err, x.Data)
		}
		if r, err := filepath.Rel(realRoot, target); err != nil || !filepath.IsLocal(r) {
			return fmt.Errorf("batch: %s is a symbolic link to %s, outside the data directory %s: remove it; the batch writes only inside the data directory", cur, target, x.Data)
		}
	}
	return nil
}

// runPaths are the paths a run writes or deletes: its directory, lock,
// properties, command, stdout and stderr, and its preparation step's.
func (x *Experiment) runPaths(r *Run) []string {
	dir := x.RunDir(r)
	ps := []string{dir}
	for _, f := range []string{"lock", propertiesFile, "command", "stdout", "stderr", "prepare.stdout", "prepare.stderr"} {
		ps = append(ps, filepath.Join(dir, f))
	}
	return ps
}

// checkRun checks every path of run r with Within.
func (x *Experiment) checkRun(r *Run) error {
	for _, p := range x.runPaths(r) {
		if err := x.Within(p); err != nil {
			return err
		}
	}
	return nil
}

// openData checks that the data directory belongs to this experiment,
// creating it (and its identity) when create is set and it is absent.
//
// Batches started together on a new directory (the tasks of a Slurm
// array, two terminals) race to create it: one may find the directory
// already made, holding only another's temporary identity file, or the
// identity renamed into place a moment after it looked. Neither makes the
// directory someone else's: temporary identity files are not contents,
// and an identity that appears meanwhile is read and checked like any.
func (x *Experiment) openData(create bool, w writer) error {
	path := filepath.Join(x.Data, identityFile)
	for try := 0; ; try++ {
		b, err := os.ReadFile(path)
		switch {
		case err == nil:
			var id identity
			if err := json.Unmarshal(b, &id); err != nil || id.Tool != "vigil batch" {
				return fmt.Errorf("batch: %s is not a vigil batch data directory (its %s is unreadable): choose another data directory (data = \"...\")", x.Data, identityFile)
			}
			if id.Name != x.Name {
				return fmt.Errorf("batch: %s was written by experiment %q (%s), not %q: refusing to mix their runs; set data = \"...\" to another directory or rename the experiment back", x.Data, id.Name, id.File, x.Name)
			}
			return nil
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("batch: %w", err)
		}
		ents, err := os.ReadDir(x.Data)
		if err != nil {
			break // absent (or unreadable: MkdirAll below says why)
		}
		appeared, others := false, false
		for _, e := range ents {
			switch {
			case e.Name() == identityFile:
				appeared = true
			case !strings.HasPrefix(e.Name(), "."+identityFile+".tmp-"):
				others = true
			}
		}
		if appeared && try < 3 {
			continue // another batch renamed it into place meanwhile
		}
		if appeared || others {
			return fmt.Errorf("batch: %s exists and is not a vigil batch data directory (no %s): choose another data directory (data = \"...\")", x.Data, identityFile)
		}
		break
	}
	if !create {
		return nil
	}
	if err := os.MkdirAll(x.Data, 0o755); err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	b, _ := json.MarshalIndent(identity{Name: x.Name, File: x.File, Tool: "vigil batch"}, "", "  ")
	if err := writeNew(w, path, append(b, '\n')); err != nil {
		return err
	}
	// Read it back: a batch of another experiment racing for the same new
	// directory may have written its identity first (where hard links
	// work; else renamed it over this one, which a batch that read its
	// own back already has missed: both went on).
	return x.openData(false, w)
}

// Properties reads the properties of a finished run (nil, nil when the run
// has not finished).
func (x *Experiment) Properties(r *Run) (map[string]any, error) {
	b, err := os.ReadFile(filepath.Join(x.RunDir(r), propertiesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil || p == nil {
		why := "null"
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("batch: %s is not a run's properties (%s): the batch writes them whole, so the file was damaged or edited; remove it and vigil batch run runs %s again", filepath.Join(x.RunDir(r), propertiesFile), why, r.ID)
	}
	return p, nil
}

// File is what writeAtomic writes through; tests substitute one that fails
// like a full disk.
type File interface {
	io.Writer
	Sync() error
	Close() error
}

var tmpCount atomic.Int64

// writer creates files; nil means os.Create.
type writer func(name string) (File, error)

func (w writer) create(name string) (File, error) {
	if w == nil {
		return os.Create(name)
	}
	return w(name)
}

// writeAtomic writes data to path so that path holds either its old
// contents or all of data: a temporary file in the same directory, synced,
// then renamed over path. On error the temporary file is removed and path
// is untouched. The directory is not synced (that would double the cost
// of recording a tiny run): a power cut may lose the rename, and then the
// run is simply not recorded and runs again; it cannot leave a partial
// file under the final name.
func writeAtomic(w writer, path string, data []byte) (err error) {
	return writeFile(w, path, data, false)
}

// writeNew is writeAtomic that leaves a path that exists as it is (the
// first of batches racing to write it wins; the others read it).
func writeNew(w writer, path string, data []byte) (err error) {
	return writeFile(w, path, data, true)
}

func writeFile(w writer, path string, data []byte, exclusive bool) (err error) {
	// The temporary name is unique: Slurm tasks starting together may all
	// write the experiment's identity file.
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.tmp-%d-%d", filepath.Base(path), os.Getpid(), tmpCount.Add(1)))
	f, err := w.create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if exclusive {
		// A link fails where path exists, which a rename would replace.
		switch lerr := os.Link(tmp, path); {
		case lerr == nil || errors.Is(lerr, fs.ErrExist):
			os.Remove(tmp)
			return nil
		}
		// no hard links here (some network file systems): rename
	}
	return os.Rename(tmp, path)
}

// flatten adds the JSON object v to p, nested keys joined with '_'
// (Lab's attributes are flat): every list gives its length, KEY_count (the
// number of bugs, of states), and a list of scalars is kept as well. A
// key that collides with the batch's own attributes or with one of taken
// (the instance's static attributes), at any depth ({"wall": {"time": 1}}
// is wall_time), gets the prefix "vigil_": the run's measurements and
// attributes are not overwritten, nor is the engine's output lost.
func flatten(p map[string]any, prefix string, v map[string]any, taken map[string]any) {
	for k, val := range v {
		key := k
		if prefix != "" {
			key = prefix + "_" + k
		}
		key = strings.ReplaceAll(key, " ", "_")
		put := func(key string, val any) {
			if _, ok := taken[key]; ok || reserved[key] {
				key = "vigil_" + key
			}
			p[key] = val
		}
		switch val := val.(type) {
		case map[string]any:
			flatten(p, key, val, taken)
		case []any:
			if scalars(val) {
				put(key, val)
			}
			put(key+"_count", len(val)) // also for an empty list: 0 bugs is a number
		default:
			put(key, val)
		}
	}
}

func scalars(xs []any) bool {
	for _, x := range xs {
		switch x.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

var reserved = map[string]bool{
	"id": true, "run_dir": true, "algorithm": true, "domain": true, "problem": true, "rep": true,
	"command": true, "error": true, "coverage": true, "time": true, "wall_time": true, "memory": true,
	"exit_code": true, "signal": true, "time_limit": true, "wall_limit": true, "memory_limit": true,
	"unexplained_errors": true, "prepare": true, "prepare_time": true, "prepare_exit_code": true,
	staticKey: true,
}

// staticKey lists, in a run's properties, the names of its instance's
// static attributes when it ran (Fetch: an attribute added later does
// not stand in for a value of the same name the run recorded).
const staticKey = "static_attributes"

// answerKeys are the attributes of a run's answer that no static
// attribute of an instance may take: an instance's verdict = "unsafe"
// would stand in for every run's own verdict, hiding a wrong one from
// the agreement check.
var answerKeys = map[string]bool{"verdict": true}
