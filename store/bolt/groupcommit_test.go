package bolt

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/internal/await"
)

// held starts a group commit whose transaction waits in its function until
// n more calls are pending behind it, so that those n go in one
// transaction together. It returns once that transaction has begun, with a
// channel for the held call's result.
func held(t *testing.T, g *groupCommit, n int) <-chan error {
	t.Helper()
	release, inside := make(chan struct{}), make(chan struct{})
	res := make(chan error, 1)
	go func() {
		res <- g.do(func(tx *bbolt.Tx) error {
			close(inside)
			<-release
			_, err := tx.CreateBucketIfNotExists([]byte("held"))
			return err
		})
	}()
	go func() {
		await.Until(t, time.Minute, fmt.Sprintf("%d calls pending behind the held commit", n), func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			return g.running && len(g.pending) == n
		})
		close(release)
	}()
	await.Recv(t, time.Minute, "the held commit to start", inside)
	return res
}

// That an append after a quiet spell commits at once, not after a delay
// for company, is a matter of time: BenchmarkJournalAppend/players=1
// measures it (0.39 ms, one fsync, against 1.37 ms with bbolt's Batch).

func TestAppendsWaitingBehindACommitShareTheNextOne(t *testing.T) {
	b := newTest(t)
	const n = 20
	res := held(t, b.group, n)
	before := b.JournalCommits()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := b.AppendJournal(fmt.Sprintf("SHA256:p%d", i), 0, []byte("x")); err != nil {
				t.Error(err)
			}
		})
	}
	if err := await.Recv(t, time.Minute, "the held commit", res); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if got := b.JournalCommits() - before; got != 1 {
		t.Errorf("%d appends that waited behind one commit took %d commits, want 1", n, got)
	}
	for i := range n {
		if j, err := b.Journal(fmt.Sprintf("SHA256:p%d", i)); err != nil || len(j) != 1 {
			t.Errorf("player %d's journal: %d entries, %v", i, len(j), err)
		}
	}
}

func TestAFailingCallInAGroupFailsAloneAndTheOthersCommit(t *testing.T) {
	b := newTest(t)
	const n = 6
	res := held(t, b.group, n)
	refused := errors.New("refused by the test")
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = b.group.do(func(tx *bbolt.Tx) error {
				switch i {
				case 2:
					return refused
				case 4:
					panic("a bug in one call")
				}
				bk, err := tx.CreateBucketIfNotExists([]byte("group"))
				if err != nil {
					return err
				}
				return bk.Put(fmt.Appendf(nil, "k%d", i), []byte("v"))
			})
		})
	}
	if err := await.Recv(t, time.Minute, "the held commit", res); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		switch i {
		case 2:
			if !errors.Is(err, refused) {
				t.Errorf("the failing call got %v, want its own error", err)
			}
		case 4:
			if !errors.Is(err, ErrPanic) {
				t.Errorf("the panicking call got %v, want ErrPanic", err)
			}
		default:
			if err != nil {
				t.Errorf("call %d failed with its group: %v", i, err)
			}
		}
	}
	err := b.db.View(func(tx *bbolt.Tx) error {
		bk := tx.Bucket([]byte("group"))
		for i := range n {
			got := bk != nil && bk.Get(fmt.Appendf(nil, "k%d", i)) != nil
			if want := i != 2 && i != 4; got != want {
				t.Errorf("call %d's write committed: %v, want %v", i, got, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
