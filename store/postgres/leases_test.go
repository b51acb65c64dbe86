package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
)

// Two nodes (two processes' stores on one database) race to claim one key,
// 20 times: exactly one wins each time.
func TestTwoNodesClaimingOneKeyOneWins(t *testing.T) {
	url := pgtest.NewDatabase(t)
	nodes := make([]*postgres.Store, 2)
	for i := range nodes {
		st, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		nodes[i] = st
	}
	for round := range 20 {
		fp := fmt.Sprintf("SHA256:race%d", round)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		epochs := make([]uint64, 2)
		start := make(chan struct{})
		for i, st := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				epochs[i], errs[i] = st.Claim(context.Background(), fp, fmt.Sprintf("node%d", i), time.Hour)
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for i := range 2 {
			if errs[i] == nil {
				won++
				if epochs[i] != 1 {
					t.Errorf("round %d: node %d won epoch %d, want 1", round, i, epochs[i])
				}
			} else if !errors.Is(errs[i], store.ErrLeaseHeld) {
				t.Fatalf("round %d: node %d: %v", round, i, errs[i])
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d nodes won, want 1", round, won)
		}
	}
}

// Renew of a node's 100 keys is one statement, and reports the ones
// another node took over.
func TestRenewOfAHundredKeysReportsTheLostOnes(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	var fps []string
	for i := range 100 {
		fp := fmt.Sprintf("SHA256:k%03d", i)
		ttl := time.Hour
		if i%10 == 0 {
			ttl = time.Millisecond // these ten will be taken over
		}
		if _, err := st.Claim(ctx, fp, "n1", ttl); err != nil {
			t.Fatal(err)
		}
		fps = append(fps, fp)
	}
	var taken []string
	for i := 0; i < 100; i += 10 {
		postgres.ClaimWhenLapsed(t, st, fps[i], "n2", time.Hour) // once n1's millisecond is over
		taken = append(taken, fps[i])
	}
	start := time.Now()
	lost, err := st.Renew(ctx, "n1", fps, time.Hour)
	t.Logf("renew of %d keys: %v", len(fps), time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lost)
	if !slices.Equal(lost, taken) {
		t.Errorf("renew reported lost %v, want %v", lost, taken)
	}
	if _, err := st.Claim(ctx, fps[1], "n2", time.Hour); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("a renewed key claimed by another node: %v, want ErrLeaseHeld", err)
	}
}

// A node that lost its lease (its session paused past the TTL) keeps
// writing its game while the new owner plays: none of its appends lands,
// every one of the owner's does, group commit or not.
func TestAPausedNodesAppendsNeverLandInTheNewOwnersJournal(t *testing.T) {
	url := pgtest.NewDatabase(t)
	n1, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer n1.Close()
	n2, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer n2.Close()
	ctx := context.Background()
	const fp = "SHA256:p"
	old, err := n1.Claim(ctx, fp, "n1", time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	cur := postgres.ClaimWhenLapsed(t, n2, fp, "n2", time.Hour) // once n1's millisecond is over
	g1, g2 := n1.Fenced(fp, old), n2.Fenced(fp, cur)
	if err := g2.PutSave(fp, []byte("n2's save")); err != nil {
		t.Fatal(err)
	}
	const moves = 50
	var wg sync.WaitGroup
	for seq := range moves {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := g1.AppendJournal(fp, uint64(seq), []byte("stale")); !errors.Is(err, store.ErrFenced) {
				t.Errorf("n1's append #%d: %v, want ErrFenced", seq, err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := g2.AppendJournal(fp, uint64(seq), fmt.Appendf(nil, "n2 %d", seq)); err != nil {
				t.Errorf("n2's append #%d: %v", seq, err)
			}
		}()
	}
	wg.Wait()
	j, err := n2.Journal(fp)
	if err != nil {
		t.Fatal(err)
	}
	if len(j) != moves {
		t.Fatalf("journal has %d entries, want %d", len(j), moves)
	}
	for seq, e := range j {
		if want := fmt.Sprintf("n2 %d", seq); string(e) != want {
			t.Errorf("entry %d is %q, want %q", seq, e, want)
		}
	}
}
