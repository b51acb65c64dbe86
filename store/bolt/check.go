// Checking the database file for damage before the server uses it: a walk
// of every page the file's tree reaches, read with ReadAt (never through
// bbolt's memory map), then bbolt's own consistency check.
//
// Why not bbolt alone: bbolt trusts the page ids it finds on disk. A
// damaged branch page that names a page past the end of the file makes
// bbolt dereference an address outside its memory map (go.etcd.io/bbolt
// v1.5.0 db.go, DB.page: `&db.data[pos]` with no bound), a SIGSEGV that no
// recover catches unless the faulting goroutine called
// debug.SetPanicOnFault; a damaged page header panics in Page.FastCheck
// (internal/common/page.go). Tx.Check itself runs in a goroutine of its own
// (tx_check.go), so a fault there ends the process too, and with
// Options.NoFreelistSync bbolt's Open walks the whole tree in yet another
// goroutine (db.go, DB.freepages). Upstream: etcd-io/bbolt#1225 (SIGSEGV
// reading a damaged file), #105 (Open and Check crash on a damaged file;
// SetPanicOnFault suggested), #335 (freepages panics after a power loss).
// Hence this walk first: once every
// reachable page is known to lie inside the file, name itself and hold its
// elements inside its bounds, bbolt's walks cannot fault.

package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// ErrDamaged is returned (wrapped, naming the file and its first problems)
// by [Open] when the file's pages are damaged, as after a power loss on a
// disk that acknowledged writes it had not made, or a file cut short. The
// server must not start on it: restore a backup. It is also wrapped, with
// [ErrCorrupt], by any store call that meets a damaged page while running.
var ErrDamaged = errors.New("database file is damaged")

// maxProblems is how many problems a damage report names; the walk stops
// counting there.
const maxProblems = 3

// bbolt's on-disk format (go.etcd.io/bbolt v1.5.0 internal/common/page.go
// and meta.go), in the machine's byte order as bbolt writes it.
const (
	pageHeaderSize   = 16 // id uint64, flags uint16, count uint16, overflow uint32
	elementSize      = 16 // branch: pos, ksize uint32, pgid uint64; leaf: flags, pos, ksize, vsize uint32
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	bucketHeaderSize = 16 // root pgid uint64, sequence uint64; root 0 = inline page follows
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	metaChecksumOff  = 56 // the checksum (fnv-64a of the bytes before it)
	noFreelist       = ^uint64(0)
	maxTreeDepth     = 64
)

var ne = binary.NativeEndian

// boltMeta is the part of a meta page the walk needs.
type boltMeta struct {
	root, freelist, pgid, txid uint64
}

// readMeta reads the meta page at page index i and reports whether it is
// valid by bbolt's rule (common.Meta.Validate: magic, version, checksum).
func readMeta(r io.ReaderAt, pageSize, i int) (boltMeta, bool) {
	b := make([]byte, pageHeaderSize+64)
	if _, err := r.ReadAt(b, int64(i*pageSize)); err != nil {
		return boltMeta{}, false
	}
	m := b[pageHeaderSize:]
	h := fnv.New64a()
	h.Write(m[:metaChecksumOff])
	ok := ne.Uint32(m[0:]) == boltMagic && ne.Uint32(m[4:]) == boltVersion && ne.Uint64(m[metaChecksumOff:]) == h.Sum64()
	return boltMeta{root: ne.Uint64(m[16:]), freelist: ne.Uint64(m[32:]), pgid: ne.Uint64(m[40:]), txid: ne.Uint64(m[48:])}, ok
}

// pageWalk visits every page reachable from a meta page.
type pageWalk struct {
	r        io.ReaderAt
	pageSize int
	hwm      uint64 // the file's page count as the meta page says (its high-water mark)
	seen     map[uint64]bool
	problems []string
}

func (w *pageWalk) problem(format string, args ...any) {
	if len(w.problems) < maxProblems {
		w.problems = append(w.problems, fmt.Sprintf(format, args...))
	}
}

func (w *pageWalk) done() bool { return len(w.problems) >= maxProblems }

// page reads page id and its overflow pages, or returns nil after noting
// why it cannot be used.
func (w *pageWalk) page(id uint64) []byte {
	if id < 2 || id >= w.hwm {
		w.problem("page %d is referenced but the file has pages 2 to %d", id, w.hwm-1)
		return nil
	}
	if w.seen[id] {
		w.problem("page %d is referenced twice", id)
		return nil
	}
	p := make([]byte, w.pageSize)
	if _, err := w.r.ReadAt(p, int64(id)*int64(w.pageSize)); err != nil {
		w.problem("page %d: %v", id, err)
		return nil
	}
	if got := ne.Uint64(p); got != id {
		w.problem("page %d says it is page %d", id, got)
		return nil
	}
	if over := uint64(ne.Uint32(p[12:])); over > 0 {
		if over >= w.hwm-id {
			w.problem("page %d runs %d pages past the end", id, over)
			return nil
		}
		p = make([]byte, (over+1)*uint64(w.pageSize))
		if _, err := w.r.ReadAt(p, int64(id)*int64(w.pageSize)); err != nil {
			w.problem("page %d: %v", id, err)
			return nil
		}
	}
	for i := uint64(0); i*uint64(w.pageSize) < uint64(len(p)); i++ {
		w.seen[id+i] = true
	}
	return p
}

// tree checks the page id and, depth first, everything below it, and
// returns its greatest key. Its keys must lie in [lo, hi) (nil: unbounded),
// the range its parent gives it, as bbolt's Tx.Check requires (tx_check.go,
// recursivelyCheckPageKeyOrderInternal): bbolt's Open walks the tree with
// the same rules in a goroutine of its own and panics on the first break
// (db.go, DB.freepages), so the walk must see every break first.
func (w *pageWalk) tree(id uint64, depth int, lo, hi []byte) []byte {
	if w.done() {
		return nil
	}
	if depth > maxTreeDepth {
		w.problem("page %d is %d levels deep", id, depth)
		return nil
	}
	p := w.page(id)
	if p == nil {
		return nil
	}
	switch flags := ne.Uint16(p[8:]); flags {
	case branchPageFlag:
		return w.branch(id, p, depth, lo, hi)
	case leafPageFlag:
		return w.leaf(id, p, depth, lo, hi)
	default:
		w.problem("page %d has type %#x where a branch or leaf page belongs", id, flags)
		return nil
	}
}

// elements checks that the count elements of page p fit in it.
func (w *pageWalk) elements(id uint64, p []byte) (int, bool) {
	n := int(ne.Uint16(p[10:]))
	if pageHeaderSize+n*elementSize > len(p) {
		w.problem("page %d claims %d elements, more than it can hold", id, n)
		return 0, false
	}
	return n, true
}

// key returns the ksize bytes at element e's offset pos and the vsize
// bytes after them, or false after noting that they lie outside p.
func (w *pageWalk) key(id uint64, p []byte, e int, pos, ksize, vsize uint64) (k, v []byte, ok bool) {
	start := uint64(pageHeaderSize+e*elementSize) + pos
	if start+ksize+vsize > uint64(len(p)) {
		w.problem("page %d element %d points outside the page", id, e)
		return nil, nil, false
	}
	return p[start : start+ksize], p[start+ksize : start+ksize+vsize], true
}

// ordered checks key k of element e against the key before it (or the
// lower bound, for the first) and the upper bound hi, by bbolt's rule
// (tx_check.go, verifyKeyOrder).
func (w *pageWalk) ordered(id uint64, e int, prev, k, hi []byte) bool {
	if (e == 0 && prev != nil && bytes.Compare(prev, k) > 0) || (e > 0 && bytes.Compare(prev, k) >= 0) ||
		(hi != nil && bytes.Compare(k, hi) >= 0) {
		w.problem("page %d element %d: key out of order", id, e)
		return false
	}
	return true
}

func (w *pageWalk) branch(id uint64, p []byte, depth int, lo, hi []byte) []byte {
	n, ok := w.elements(id, p)
	if !ok {
		return nil
	}
	if n == 0 {
		w.problem("branch page %d is empty", id)
		return nil
	}
	keys := make([][]byte, n)
	for e := range n {
		el := p[pageHeaderSize+e*elementSize:]
		if keys[e], _, ok = w.key(id, p, e, uint64(ne.Uint32(el[0:])), uint64(ne.Uint32(el[4:])), 0); !ok {
			return nil
		}
	}
	var max []byte
	prev := lo
	for e := range n {
		if !w.ordered(id, e, prev, keys[e], hi) {
			return nil
		}
		childHi := hi
		if e+1 < n {
			childHi = keys[e+1]
		}
		max = w.tree(ne.Uint64(p[pageHeaderSize+e*elementSize+8:]), depth+1, keys[e], childHi)
		if w.done() {
			return nil
		}
		prev = max
	}
	return max
}

// leaf checks a leaf page (or an inline bucket's page) and the buckets
// it holds, and returns its last key.
func (w *pageWalk) leaf(id uint64, p []byte, depth int, lo, hi []byte) []byte {
	n, ok := w.elements(id, p)
	if !ok || n == 0 {
		return nil
	}
	prev := lo
	for e := range n {
		el := p[pageHeaderSize+e*elementSize:]
		k, v, ok := w.key(id, p, e, uint64(ne.Uint32(el[4:])), uint64(ne.Uint32(el[8:])), uint64(ne.Uint32(el[12:])))
		if !ok || !w.ordered(id, e, prev, k, hi) {
			return nil
		}
		prev = k
		if ne.Uint32(el[0:])&bucketLeafFlag == 0 {
			continue
		}
		if len(v) < bucketHeaderSize {
			w.problem("page %d element %d: a bucket of %d bytes", id, e, len(v))
			return nil
		}
		if root := ne.Uint64(v); root != 0 {
			w.tree(root, depth+1, nil, nil)
			continue
		}
		inline := v[bucketHeaderSize:]
		if len(inline) < pageHeaderSize || ne.Uint16(inline[8:]) != leafPageFlag {
			w.problem("page %d element %d: an inline bucket that is not a leaf", id, e)
			return nil
		}
		w.leaf(id, inline, depth+1, nil, nil)
	}
	return prev
}

// freelist checks the freelist page, when the file keeps one.
func (w *pageWalk) freelist(id uint64) {
	if id == noFreelist {
		return // Options.NoFreelistSync: bbolt rebuilds it at open
	}
	p := w.page(id)
	if p == nil {
		return
	}
	if ne.Uint16(p[8:]) != freelistPageFlag {
		w.problem("freelist page %d has type %#x", id, ne.Uint16(p[8:]))
		return
	}
	n, first := uint64(ne.Uint16(p[10:])), uint64(pageHeaderSize)
	if n == 0xFFFF { // the count overflowed into the first id's slot (freelist.Read)
		n, first = ne.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if n > (uint64(len(p))-first)/8 {
		w.problem("freelist page %d claims %d free pages, more than it holds", id, n)
		return
	}
	for i := range n {
		if free := ne.Uint64(p[first+8*i:]); free < 2 || free >= w.hwm {
			w.problem("freelist page %d lists page %d, outside the file", id, free)
			return
		}
	}
}

// walkPages checks the structure of the bbolt file r of size bytes with
// pages of pageSize bytes, from the meta page bbolt would use (db.go,
// DB.meta), and returns its first problems, none when it is sound.
func walkPages(r io.ReaderAt, size int64, pageSize int) []string {
	hi, hiOK := readMeta(r, pageSize, 0)
	lo, loOK := readMeta(r, pageSize, 1)
	if lo.txid > hi.txid {
		hi, hiOK, lo, loOK = lo, loOK, hi, hiOK
	}
	m := hi
	if !hiOK {
		if !loOK {
			return []string{"no valid meta page"}
		}
		m = lo
	}
	w := &pageWalk{r: r, pageSize: pageSize, hwm: m.pgid, seen: map[uint64]bool{}}
	if m.pgid < 3 || m.pgid > uint64(size)/uint64(pageSize) {
		return []string{fmt.Sprintf("the file is %d bytes but its pages reach %d bytes: it was cut short", size, m.pgid*uint64(pageSize))}
	}
	w.freelist(m.freelist)
	w.tree(m.root, 0, nil, nil)
	return w.problems
}

// checkDamage looks for damage in the database at path before it is opened
// for writing: it takes bbolt's shared lock (waiting up to lockTimeout),
// walks the pages with walkPages and, if they are sound, runs bbolt's own
// Tx.Check (freelist, key order, pages neither free nor reachable). An
// absent or empty file is sound. Errors wrap [ErrDamaged], [ErrLocked] or
// [ErrNotDatabase] and name path.
func checkDamage(path string, opts bbolt.Options) (err error) {
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil // Open creates it or says why it cannot
	}
	opts.ReadOnly, opts.PreLoadFreelist = true, false
	var db *bbolt.DB
	err = guard(func() error {
		var err error
		db, err = bbolt.Open(path, 0o600, &opts)
		return err
	})
	if err != nil {
		return openError(path, err, opts.Timeout)
	}
	defer db.Close()
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open store %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open store %s: %w", path, err)
	}
	problems := walkPages(f, fi.Size(), db.Info().PageSize)
	if len(problems) == 0 {
		err = guard(func() error {
			return db.View(func(tx *bbolt.Tx) error {
				for err := range tx.Check() { // drain it all: the check holds the transaction
					if len(problems) < maxProblems { // a panic bbolt recovered reads "panic: ..."
						problems = append(problems, strings.TrimPrefix(err.Error(), "panic: "))
					}
				}
				return nil
			})
		})
		if err != nil {
			problems = append(problems, err.Error()) // a panic in this goroutine: the walk should have seen it
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("open store %s: %w: %s", path, ErrDamaged, strings.Join(problems, "; "))
	}
	return nil
}

// guard runs fn, turning a memory fault on a damaged page of the memory map,
// or a panic raised inside bbolt, into an error wrapping [ErrDamaged] and
// [ErrCorrupt]. A fault becomes a panic only in the goroutine that asked
// (debug.SetPanicOnFault), so it covers bbolt's work in this goroutine, not
// in those bbolt starts. A panic raised in grotto's own code (a bug, not the
// file) becomes an error wrapping [ErrPanic] only, so that it never marks a
// sound file as damaged (which refuses every later write).
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); fault || panickedInBbolt() {
				err = fmt.Errorf("%w: %w: %v", ErrDamaged, store.ErrCorrupt, r)
			} else {
				err = fmt.Errorf("%w: %v", ErrPanic, r)
			}
		}
	}()
	return fn()
}

// ErrPanic is returned (wrapped, with the panic's value) when grotto's own
// code panicked inside a store transaction: a bug, rolled back, the file
// untouched.
var ErrPanic = errors.New("store: a panic in a transaction was recovered")

// panickedInBbolt reports, from a deferred recover, whether the function
// that panicked is bbolt's: the first frame of the panicking goroutine's
// stack that is neither the runtime's nor this package's guard.
func panickedInBbolt() bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, "runtime."), strings.Contains(f.Function, "store.guard"):
		default:
			return strings.HasPrefix(f.Function, "go.etcd.io/bbolt")
		}
		if !more {
			return false
		}
	}
}

// Verify runs bbolt's consistency check (Tx.Check: every page reachable
// exactly once, the freelist and the branches in order) over the open file
// in one read transaction, and returns every inconsistency it found,
// joined, or nil. It reads the whole file; tests run it as a store closes
// (storetest.TempBolt). Errors: bbolt's ErrDatabaseNotOpen (from
// go.etcd.io/bbolt/errors) once the store is closed, ErrPanic when bbolt
// panicked on a damaged page.
func (b *Store) Verify() error {
	var found []error
	err := b.db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			found = append(found, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return errors.Join(found...)
}
