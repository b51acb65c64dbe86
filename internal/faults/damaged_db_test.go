package faults

// A damaged database file: pages damaged as after a power loss
// on a disk that lies about fsync, or a file cut short. The server must
// refuse to start with exit 1 and one line naming the file, never crash.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
)

// populate writes n players with names, n saves and n finished games into
// the database at path: enough records that every bucket has branch pages.
func populate(t *testing.T, path string, n int) {
	t.Helper()
	st, err := bolt.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	blob, err := game.New(7, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range n {
		fp := fmt.Sprintf("SHA256:player%06d", i)
		if err := st.ClaimName(fp, fmt.Sprintf("name%d", i), now); err != nil {
			t.Fatal(err)
		}
		if err := st.PutSave(fp, blob); err != nil {
			t.Fatal(err)
		}
		done := fmt.Sprintf("SHA256:done%06d", i)
		if _, err := st.FinishGame(done, store.Score{Name: "x", Depth: 1, Turns: i, Points: i, Cause: "test", Date: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// livePages returns the ids of the pages of type typ ("branch", "leaf")
// that the database at path uses, as bbolt's Tx.Page reports them, keeping
// only pages whose header carries their own id (not the middle of an
// overflow run), and the page size in bytes.
func livePages(t *testing.T, path, typ string) ([]int, int) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := db.Info().PageSize
	var ids []int
	err = db.View(func(tx *bbolt.Tx) error {
		for id := 2; ; id++ {
			info, err := tx.Page(id)
			if err != nil || info == nil {
				return err
			}
			if info.Type == typ && binary.LittleEndian.Uint64(raw[id*ps:]) == uint64(id) {
				ids = append(ids, id)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, ps
}

// overwrite writes b at offset off of the file at path.
func overwrite(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// bbolt only: it damages the pages of the bbolt file (PostgreSQL's own
// files are the database server's to check and recover: pgtest's Kill and
// Restart test a crash of it).
func TestADamagedDatabaseStopsTheStartWithOneLineNeverACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	rng := rand.New(rand.NewPCG(10, 3))
	damage := []struct {
		name string
		do   func(t *testing.T, path string)
	}{
		{"branch pages pointing at pages far past the end", func(t *testing.T, path string) {
			ids, ps := livePages(t, path, "branch")
			if len(ids) == 0 {
				t.Fatal("no branch pages to damage")
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids { // each element is pos, ksize (uint32) and the child's id (uint64)
				count := int(binary.LittleEndian.Uint16(raw[id*ps+10:]))
				for e := range count {
					overwrite(t, path, int64(id*ps+16+e*16+8), binary.LittleEndian.AppendUint64(nil, uint64(len(raw)/ps)+1<<16+rng.Uint64N(1<<24)))
				}
			}
		}},
		{"branch pages overwritten", func(t *testing.T, path string) {
			ids, ps := livePages(t, path, "branch")
			if len(ids) == 0 {
				t.Fatal("no branch pages to damage")
			}
			for _, id := range ids { // keep the header: only the elements are garbage
				overwrite(t, path, int64(id*ps+16), randomBytes(rng, ps-16))
			}
		}},
		{"leaf page headers overwritten", func(t *testing.T, path string) {
			ids, ps := livePages(t, path, "leaf")
			for _, id := range ids {
				overwrite(t, path, int64(id*ps), randomBytes(rng, 16))
			}
		}},
		{"file cut to half its size", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "grotto.db")
			populate(t, path, 300)
			d.do(t, path)
			p := start(t, anyPort, dir)
			select {
			case <-p.done:
			default: // still up: a new and a known player log in, as after a reboot
				for _, pl := range newPlayers(t, 2) {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					if c, err := dialAs(pl, p.addr); err == nil {
						c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, "Choose the name") })
						c.Send("\r")
						c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, "New game") })
						c.Send("n")
						c.WaitFor(ctx, func(s string) bool { return turnOf(s) >= 0 })
						c.Close()
					}
					cancel()
				}
				p.sigterm()
			}
			code := p.exit(t, 15*time.Second)
			stderr := strings.TrimSpace(p.stderr.String())
			t.Logf("exit %d, stderr %d bytes:\n%.600s", code, len(stderr), stderr)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") || strings.Contains(stderr, "SIGSEGV") {
				t.Errorf("a crash, not a refusal:\n%.2000s", stderr)
			}
			if strings.Count(stderr, "\n") != 0 || !strings.Contains(stderr, path) || !strings.Contains(stderr, "damaged") ||
				!strings.Contains(stderr, "backup") {
				t.Errorf("want one line naming %s as damaged and saying what to do, got:\n%.2000s", path, stderr)
			}
		})
	}
}
