// The lease contract: claims, renewals, releases and fenced writes (see
// store.Leases), for every store that implements them.

package storetest

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// LeasedStore is a store with leases.
type LeasedStore interface {
	store.Store
	store.Leases
}

// RunLeases runs the lease contract against the stores open returns (a
// new, empty store each call; the suite closes it). Node names are "a"
// and "b"; a store shared by many nodes is one store here.
func RunLeases(t *testing.T, open func(t *testing.T) LeasedStore) {
	for _, c := range []struct {
		name string
		test func(*testing.T, LeasedStore)
	}{
		{"a claim grants epoch 1, the holder's claim keeps it, a reclaim after expiry gives epoch+1", claimEpochs},
		{"a second node is refused while the lease is live and granted after expiry or release", secondNode},
		{"stale-epoch writes are refused with ErrFenced and leave the new owner's game byte-equal", staleWrites},
		{"a stale epoch's quarantine moves nothing aside; the owner's sets the game aside", fencedQuarantine},
		{"a key's lease fences its daily slot as it fences its own game", fencedSlot},
		{"renew extends a node's leases and reports the keys it lost", renew},
		{"two nodes claiming one key at once: exactly one wins, 20 times", claimRace},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			c.test(t, st)
		})
	}
}

const (
	long  = time.Hour              // a lease that stays live for the whole test
	short = time.Millisecond       // a lease that has expired once expired() returns
	fpA   = "SHA256:leased-player" // the key the tests pass around
)

var ctx = context.Background()

// expired waits until a lease of ttl short has surely expired.
func expired() { time.Sleep(50 * short) }

func claim(t *testing.T, st LeasedStore, fp, node string, ttl time.Duration) uint64 {
	t.Helper()
	e, err := st.Claim(ctx, fp, node, ttl)
	if err != nil {
		t.Fatalf("claim %s by %s: %v", fp, node, err)
	}
	return e
}

func claimEpochs(t *testing.T, st LeasedStore) {
	if e := claim(t, st, fpA, "a", long); e != 1 {
		t.Errorf("first claim: epoch %d, want 1", e)
	}
	if e := claim(t, st, fpA, "a", short); e != 1 {
		t.Errorf("the holder's claim again: epoch %d, want 1 (extended)", e)
	}
	if lost, err := st.Renew(ctx, "a", []string{fpA}, short); err != nil || len(lost) != 0 {
		t.Errorf("renew of a held lease: lost %v, %v; want none", lost, err)
	}
	expired()
	if e := claim(t, st, fpA, "a", long); e != 2 {
		t.Errorf("the same node's claim after expiry: epoch %d, want 2", e)
	}
	if err := st.Release(ctx, fpA, "a", 2); err != nil {
		t.Fatal(err)
	}
	if e := claim(t, st, fpA, "a", long); e != 3 {
		t.Errorf("a claim after release: epoch %d, want 3", e)
	}
}

func secondNode(t *testing.T, st LeasedStore) {
	e1 := claim(t, st, fpA, "a", long)
	_, err := st.Claim(ctx, fpA, "b", long)
	var held *store.LeaseHeldError
	if !errors.Is(err, store.ErrLeaseHeld) || !errors.As(err, &held) || held.Node != "a" || !held.Expires.After(time.Now().Add(long/2)) {
		t.Fatalf("node b's claim of a live lease of a: %v, want ErrLeaseHeld naming a and its expiry", err)
	}
	// A release of a stale epoch, or by another node, leaves it held.
	_ = st.Release(ctx, fpA, "b", e1)
	_ = st.Release(ctx, fpA, "a", e1+1)
	if _, err := st.Claim(ctx, fpA, "b", long); !errors.Is(err, store.ErrLeaseHeld) {
		t.Fatalf("after releases that do not own it: %v, want ErrLeaseHeld", err)
	}
	if err := st.Release(ctx, fpA, "a", e1); err != nil {
		t.Fatal(err)
	}
	if e := claim(t, st, fpA, "b", short); e != e1+1 {
		t.Errorf("node b after a released: epoch %d, want %d", e, e1+1)
	}
	expired()
	if e := claim(t, st, fpA, "a", long); e != e1+2 {
		t.Errorf("node a after b's lease expired: epoch %d, want %d", e, e1+2)
	}
}

func staleWrites(t *testing.T, st LeasedStore) {
	old := claim(t, st, fpA, "a", short)
	oldGame := st.Fenced(fpA, old)
	if err := oldGame.PutSave(fpA, []byte("a's save")); err != nil {
		t.Fatal(err)
	}
	if err := oldGame.AppendJournal(fpA, 0, []byte("a's move")); err != nil {
		t.Fatal(err)
	}
	expired() // node a pauses; its lease lapses; node b takes the game over
	cur := claim(t, st, fpA, "b", long)
	newGame := st.Fenced(fpA, cur)
	if err := newGame.PutSave(fpA, []byte("b's save")); err != nil {
		t.Fatal(err)
	}
	for seq, e := range []string{"b's move 0", "b's move 1"} {
		if err := newGame.AppendJournal(fpA, uint64(seq), []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	save, journal := game(t, st)

	// Node a wakes up and writes its game with its old epoch.
	for what, err := range map[string]error{
		"append": oldGame.AppendJournal(fpA, 1, []byte("a's late move")),
		"put":    oldGame.PutSave(fpA, []byte("a's late save")),
		"delete": oldGame.DeleteSave(fpA),
		"finish": func() error {
			_, err := oldGame.FinishGame(fpA, store.Score{Name: "a", Points: 1, Cause: "late", Date: when})
			return err
		}(),
		"epoch 0": st.PutSaveAt(fpA, 0, []byte("no lease")),
	} {
		if !errors.Is(err, store.ErrFenced) || errors.Is(err, store.ErrUnavailable) {
			t.Errorf("stale %s: %v, want ErrFenced (and not ErrUnavailable)", what, err)
		}
	}
	if err := st.AppendJournalAt("SHA256:never-leased", 1, 0, []byte("x")); !errors.Is(err, store.ErrFenced) {
		t.Errorf("an append to a key never leased: %v, want ErrFenced", err)
	}
	save2, journal2 := game(t, st)
	if !bytes.Equal(save, save2) || !slices.EqualFunc(journal, journal2, bytes.Equal) {
		t.Errorf("after stale writes the game is %q %q, want %q %q", save2, journal2, save, journal)
	}
	if top, err := st.TopScores(10); err != nil || len(top) != 0 {
		t.Errorf("a stale finish recorded scores %v (%v)", top, err)
	}
	if err := oldGame.PutSave("SHA256:other", []byte("x")); err == nil || errors.Is(err, store.ErrFenced) {
		t.Errorf("a view writing another key: %v, want a plain error", err)
	}
	// The new owner's writes go on, and its finish ends the game.
	if rank, err := newGame.FinishGame(fpA, store.Score{Name: "b", Points: 5, Cause: "won", Date: when}); err != nil || rank != 1 {
		t.Errorf("the owner's finish: rank %d, %v", rank, err)
	}
	if _, err := st.Save(fpA); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the owner's finish the save reads %v, want ErrNotFound", err)
	}
}

// fencedSlot: the daily kept beside a key's game (store.SlotKey) is
// written under the key's one lease, and refused to a stale epoch.
func fencedSlot(t *testing.T, st LeasedStore) {
	daily := store.SlotKey(fpA, store.DailySlot)
	old := claim(t, st, fpA, "a", short)
	oldGame := st.Fenced(fpA, old)
	if err := oldGame.PutSave(daily, []byte("a's daily")); err != nil {
		t.Fatal(err)
	}
	if err := oldGame.AppendJournal(daily, 0, []byte("a's move")); err != nil {
		t.Fatal(err)
	}
	expired()
	cur := claim(t, st, fpA, "b", long)
	newGame := st.Fenced(fpA, cur)
	if err := newGame.AppendJournal(daily, 1, []byte("b's move")); err != nil {
		t.Fatal(err)
	}
	for what, err := range map[string]error{
		"append": oldGame.AppendJournal(daily, 2, []byte("a's late move")),
		"put":    oldGame.PutSave(daily, []byte("a's late save")),
		"finish": func() error {
			_, err := oldGame.FinishGame(daily, store.Score{Name: "a", Points: 1, Cause: "late", Date: when, Daily: "2026-11-30"})
			return err
		}(),
	} {
		if !errors.Is(err, store.ErrFenced) {
			t.Errorf("stale %s of the daily: %v, want ErrFenced", what, err)
		}
	}
	if b, err := st.Save(daily); err != nil || string(b) != "a's daily" {
		t.Errorf("the daily's save after stale writes: %q (%v)", b, err)
	}
	if j, _ := st.Journal(daily); len(j) != 2 || string(j[1]) != "b's move" {
		t.Errorf("the daily's journal after stale writes: %q", j)
	}
	if err := oldGame.PutSave(store.SlotKey("SHA256:other", store.DailySlot), []byte("x")); err == nil || errors.Is(err, store.ErrFenced) {
		t.Errorf("a view writing another key's daily: %v, want a plain error", err)
	}
	if _, err := newGame.FinishGame(daily, store.Score{Name: "b", Points: 5, Cause: "won", Date: when, Daily: "2026-11-30"}); err != nil {
		t.Errorf("the owner's finish of the daily: %v", err)
	}
	if _, err := st.Save(daily); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the owner's finish the daily reads %v, want ErrNotFound", err)
	}
}

func fencedQuarantine(t *testing.T, st LeasedStore) {
	old := claim(t, st, fpA, "a", short)
	expired() // node a pauses; node b takes the game over and saves it
	cur := claim(t, st, fpA, "b", long)
	newGame := st.Fenced(fpA, cur)
	if err := newGame.PutSave(fpA, []byte("b's save")); err != nil {
		t.Fatal(err)
	}
	if err := newGame.AppendJournal(fpA, 0, []byte("b's move")); err != nil {
		t.Fatal(err)
	}
	save, journal := game(t, st)

	// Node a wakes up with the damaged save it read before, and sets it
	// aside: it would delete b's game.
	for what, err := range map[string]error{
		"view":    func() error { _, err := st.Fenced(fpA, old).Quarantine(fpA, "late damage", when); return err }(),
		"epoch 0": func() error { _, err := st.QuarantineAt(fpA, 0, "no lease", when); return err }(),
	} {
		if !errors.Is(err, store.ErrFenced) || errors.Is(err, store.ErrUnavailable) {
			t.Errorf("stale quarantine (%s): %v, want ErrFenced (and not ErrUnavailable)", what, err)
		}
	}
	save2, journal2 := game(t, st)
	if !bytes.Equal(save, save2) || !slices.EqualFunc(journal, journal2, bytes.Equal) {
		t.Errorf("after a stale quarantine the game is %q %q, want %q %q", save2, journal2, save, journal)
	}
	if qs, err := st.Quarantined(""); err != nil || len(qs) != 0 {
		t.Errorf("a stale quarantine set aside %v (%v)", qs, err)
	}
	// The owner's quarantine moves the game aside, bytes and all.
	key, err := newGame.Quarantine(fpA, "checksum mismatch", when)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := newGame.Quarantined(fpA)
	if err != nil || len(qs) != 1 || qs[0].Key != key || qs[0].Reason != "checksum mismatch" {
		t.Fatalf("after the owner's quarantine: %+v, %v; want one record under %q", qs, err, key)
	}
	if _, err := st.Save(fpA); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the owner's quarantine the save reads %v, want ErrNotFound", err)
	}
	if _, err := newGame.Quarantine("SHA256:other", "x", when); err == nil || errors.Is(err, store.ErrFenced) {
		t.Errorf("a view quarantining another key: %v, want a plain error", err)
	}
}

// game returns fp A's save and journal.
func game(t *testing.T, st LeasedStore) ([]byte, [][]byte) {
	t.Helper()
	save, err := st.Save(fpA)
	if err != nil {
		t.Fatal(err)
	}
	j, err := st.Journal(fpA)
	if err != nil {
		t.Fatal(err)
	}
	return save, j
}

func renew(t *testing.T, st LeasedStore) {
	claim(t, st, "SHA256:kept", "a", short)
	claim(t, st, "SHA256:taken", "a", short)
	expired()
	claim(t, st, "SHA256:taken", "b", long)
	lost, err := st.Renew(ctx, "a", []string{"SHA256:kept", "SHA256:taken", "SHA256:never"}, long)
	slices.Sort(lost)
	if err != nil || !slices.Equal(lost, []string{"SHA256:never", "SHA256:taken"}) {
		t.Fatalf("renew: lost %v, %v; want the key b took and the one never claimed", lost, err)
	}
	if _, err := st.Claim(ctx, "SHA256:kept", "b", long); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("a key renewed after it expired (nobody took it) claimed by b: %v, want ErrLeaseHeld", err)
	}
	if lost, err := st.Renew(ctx, "a", nil, long); err != nil || len(lost) != 0 {
		t.Errorf("renew of no keys: %v, %v", lost, err)
	}
}

func claimRace(t *testing.T, st LeasedStore) {
	for i := range 20 {
		fp := "SHA256:race-" + string(rune('a'+i))
		var wg sync.WaitGroup
		epochs := make([]uint64, 2)
		errs := make([]error, 2)
		for n, node := range []string{"a", "b"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				epochs[n], errs[n] = st.Claim(ctx, fp, node, long)
			}()
		}
		wg.Wait()
		won := 0
		for n := range 2 {
			switch {
			case errs[n] == nil && epochs[n] == 1:
				won++
			case errors.Is(errs[n], store.ErrLeaseHeld):
			default:
				t.Fatalf("race %d, node %d: epoch %d, %v", i, n, epochs[n], errs[n])
			}
		}
		if won != 1 {
			t.Fatalf("race %d: %d nodes won, want exactly 1", i, won)
		}
	}
}
