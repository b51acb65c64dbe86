// Compacting the database file offline: a copy without free pages swapped
// in for the original, which is kept as a backup.

package bolt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// compactTxBytes bounds one transaction of the copy (bytes of keys and
// values), so a large file is not copied in one transaction held in memory.
const compactTxBytes = 64 << 20

// Compacted says what [Compact] did.
type Compacted struct {
	// Path is the database file, now compacted; Backup is the file as it
	// was before, kept beside it: Path + ".bak", or ".bak.1", ".bak.2"…
	// when earlier backups are there (never replaced).
	Path, Backup string
	// Before and After are the file's sizes in bytes.
	Before, After int64
}

// Compact rewrites the database at path without its free pages, offline:
// the pages freed by finished games stay in the file until then (bbolt
// reuses them but never shrinks the file).
//
// It takes the file's lock, waiting up to lockTimeout (an error wrapping
// [ErrLocked] while a server holds it), and checks the file as [Open] does
// (an error wrapping [ErrDamaged]: compacting copies records, it cannot
// repair damage). It copies every bucket with bbolt's Compact into
// path + ".compact", syncs and checks the copy, links the old file to
// path + ".bak" (or the first free ".bak.N": an older backup, perhaps the
// only copy of the file before an earlier compact, is never replaced), renames the copy over path
// (atomic: path is always one whole database) and syncs the directory. On
// an error before the rename, path is left as it was.
func Compact(path string, lockTimeout time.Duration) (Compacted, error) {
	res := Compacted{Path: path, Backup: path + ".bak"}
	for n := 1; ; n++ {
		if _, err := os.Lstat(res.Backup); errors.Is(err, os.ErrNotExist) {
			break
		}
		res.Backup = fmt.Sprintf("%s.bak.%d", path, n)
	}
	tmp := path + ".compact"
	fi, err := os.Stat(path)
	if err != nil {
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	res.Before = fi.Size()
	opts := boltOptions(lockTimeout)
	if err := checkDamage(path, opts); err != nil {
		return res, fmt.Errorf("compact: %w", err)
	}
	src, _, err := openBolt(path, opts)
	if err != nil {
		return res, fmt.Errorf("compact: %w", openError(path, err, lockTimeout))
	}
	defer src.Close() // the lock is held until the swap is done
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	dstOpts := boltOptions(lockTimeout)
	dstOpts.NoSync = true // one sync at the end, not one per transaction
	dst, err := bbolt.Open(tmp, 0o600, &dstOpts)
	if err != nil {
		return res, fmt.Errorf("compact %s: %w", tmp, err)
	}
	err = guard(func() error { return bbolt.Compact(dst, src, compactTxBytes) })
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = checkDamage(tmp, opts)
	}
	if err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	if fi, err := os.Stat(tmp); err == nil {
		res.After = fi.Size()
	}
	if err := os.Link(path, res.Backup); err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("compact %s: keep the old file: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return res, fmt.Errorf("compact %s: the copy is in place but %w", path, err)
	}
	return res, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
