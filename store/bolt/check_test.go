package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// populate gives n players a name and a save, and records n finished
// games: enough that every bucket has branch pages.
func populate(t testing.TB, b *Store, n int) {
	t.Helper()
	blob := bytes.Repeat([]byte("save"), 1000)
	for i := range n {
		fp := fmt.Sprintf("SHA256:p%06d", i)
		if err := b.ClaimName(fp, fmt.Sprintf("name%d", i), time.Unix(1, 0)); err != nil {
			t.Fatal(err)
		}
		if err := b.PutSave(fp, blob); err != nil {
			t.Fatal(err)
		}
		if _, err := b.FinishGame(fmt.Sprintf("SHA256:d%06d", i), store.Score{Name: "d", Points: i, Date: time.Unix(2, 0)}); err != nil {
			t.Fatal(err)
		}
	}
}

// pagesOf returns the ids of the live pages of type typ ("branch", "leaf")
// in the open store, as bbolt's Tx.Page reports them, keeping those whose
// header names them (not the middle of an overflow run).
func pagesOf(t testing.TB, b *Store, path, typ string) []int {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := b.db.Info().PageSize
	var ids []int
	b.db.View(func(tx *bbolt.Tx) error {
		for id := 2; ; id++ {
			info, err := tx.Page(id)
			if err != nil || info == nil {
				return err
			}
			if info.Type == typ && binary.NativeEndian.Uint64(raw[id*ps:]) == uint64(id) {
				ids = append(ids, id)
			}
		}
	})
	if len(ids) == 0 {
		t.Fatalf("no %s pages", typ)
	}
	return ids
}

// writeAt overwrites the file at path with p at off.
func writeAt(t testing.TB, path string, off int64, p []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(p, off); err != nil {
		t.Fatal(err)
	}
}

// pointPastTheEnd makes every child of branch page id name a page far past
// the end of the file, as a torn write might.
func pointPastTheEnd(t testing.TB, path string, id, ps int, rng *rand.Rand) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for e := range int(binary.NativeEndian.Uint16(raw[id*ps+10:])) {
		far := uint64(len(raw)/ps) + 1<<16 + rng.Uint64N(1<<24)
		writeAt(t, path, int64(id*ps+16+e*16+8), binary.NativeEndian.AppendUint64(nil, far))
	}
}

func garbage(rng *rand.Rand, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	return p
}

func TestOpenRefusesADamagedFileNamingItAndNeverCrashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 4))
	const ps = 4096
	damage := []struct {
		name string
		do   func(t *testing.T, b *Store, path string)
	}{
		{"branch pages naming pages past the end", func(t *testing.T, b *Store, path string) {
			for _, id := range pagesOf(t, b, path, "branch") {
				pointPastTheEnd(t, path, id, ps, rng)
			}
		}},
		{"branch pages of garbage", func(t *testing.T, b *Store, path string) {
			for _, id := range pagesOf(t, b, path, "branch") {
				writeAt(t, path, int64(id*ps+16), garbage(rng, ps-16))
			}
		}},
		{"leaf page headers of garbage", func(t *testing.T, b *Store, path string) {
			for _, id := range pagesOf(t, b, path, "leaf") {
				writeAt(t, path, int64(id*ps), garbage(rng, 16))
			}
		}},
		{"one leaf page's keys out of order", func(t *testing.T, b *Store, path string) {
			id := pagesOf(t, b, path, "leaf")[3]
			raw, _ := os.ReadFile(path)
			el := raw[id*ps+16:] // swap the first two elements' key positions: keys out of order
			a, c := binary.NativeEndian.Uint32(el[4:]), binary.NativeEndian.Uint32(el[16+4:])
			k0, k1 := binary.NativeEndian.Uint32(el[8:]), binary.NativeEndian.Uint32(el[16+8:])
			v0, v1 := binary.NativeEndian.Uint32(el[12:]), binary.NativeEndian.Uint32(el[16+12:])
			// element 0 takes element 1's key and value (pos is relative to the element)
			binary.NativeEndian.PutUint32(el[4:], c+16)
			binary.NativeEndian.PutUint32(el[8:], k1)
			binary.NativeEndian.PutUint32(el[12:], v1)
			binary.NativeEndian.PutUint32(el[16+4:], a-16)
			binary.NativeEndian.PutUint32(el[16+8:], k0)
			binary.NativeEndian.PutUint32(el[16+12:], v0)
			writeAt(t, path, int64(id*ps+16), el[:32])
		}},
		{"the file cut short", func(t *testing.T, b *Store, path string) {
			fi, _ := os.Stat(path)
			os.Truncate(path, fi.Size()*2/3)
		}},
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "grotto.db")
			b, err := Open(path, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			populate(t, b, 300)
			d.do(t, b, path)
			b.Close()
			before, _ := os.ReadFile(path)
			b, err = Open(path, time.Second)
			if err == nil {
				b.Close()
				t.Fatal("a damaged file opened")
			}
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line wrapping ErrDamaged and naming %s", err, path)
			}
			t.Log(err)
			if _, err := Compact(path, time.Second); !errors.Is(err, ErrDamaged) {
				t.Errorf("compact: err = %v, want ErrDamaged", err)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Error("refusing changed the file")
			}
			if _, err := os.Stat(path + ".compact"); err == nil {
				t.Error("compact left its copy behind")
			}
		})
	}
}

// damagedWhileOpen returns an open store of 300 players whose players
// bucket's root page was then damaged on disk (its children pointing past
// the end of the file), and the file's path.
func damagedWhileOpen(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grotto.db")
	b, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	populate(t, b, 300)
	var root uint64
	b.db.View(func(tx *bbolt.Tx) error { root = uint64(tx.Bucket(playersBucket).Root()); return nil })
	pointPastTheEnd(t, path, int(root), b.db.Info().PageSize, rand.New(rand.NewPCG(1, 2)))
	return b, path
}

func TestAPageDamagedWhileServingGivesErrorsNotACrash(t *testing.T) {
	b, path := damagedWhileOpen(t)

	_, err := b.Profile("SHA256:p000150")
	t.Log(err)
	if !errors.Is(err, store.ErrCorrupt) || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
		t.Errorf("Profile: err = %v, want ErrCorrupt and ErrDamaged naming the file", err)
	}
	if _, err := b.TopScores(5); err != nil { // reads of sound pages still serve
		t.Errorf("TopScores: %v", err)
	}
	// Writes are refused from now on: bbolt's rollback of a failed write
	// would walk the damaged tree where no recover reaches.
	if err := b.ClaimName("SHA256:new", "newcomer", time.Now()); !errors.Is(err, ErrDamaged) {
		t.Errorf("ClaimName: err = %v, want ErrDamaged", err)
	}
	if err := b.AppendJournal("SHA256:p000001", 0, []byte("x")); !errors.Is(err, ErrDamaged) {
		t.Errorf("AppendJournal: err = %v, want ErrDamaged", err)
	}
}

// TestAWriteThatIsTheFirstToMeetDamageFailsAlone: the first transaction to
// reach a damaged page is a write. It must fail with ErrDamaged, not end
// the process in bbolt's physical rollback.
func TestAWriteThatIsTheFirstToMeetDamageFailsAlone(t *testing.T) {
	b, path := damagedWhileOpen(t)

	err := b.PutProfile(store.Profile{Fingerprint: "SHA256:p000150", Name: "again"})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
		t.Errorf("PutProfile: err = %v, want ErrDamaged naming the file", err)
	}
	if _, err := b.TopScores(5); err != nil {
		t.Errorf("TopScores after the failed write: %v", err)
	}
}
