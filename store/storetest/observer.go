// The observer contract: a store that reports its journal commits
// (store.Observable) reports each entry once, in a commit that happened.

package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/grotto-game/grotto/store"
)

// ObservableStore is a store that reports to a store.Observer.
type ObservableStore interface {
	store.Store
	store.Observable
}

// commitLog is an Observer that remembers what it heard.
type commitLog struct {
	mu      sync.Mutex
	commits []int // entries of each commit, in the order heard
}

func (l *commitLog) JournalCommitted(entries int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.commits = append(l.commits, entries)
}

// RunObserver runs the observer contract against the stores open returns
// (a new, empty store each call; the suite closes it): once appends from
// many players at once have returned, the observer has heard of commits
// carrying every entry exactly once, each commit at least one, and no more
// commits than entries (group commit shares them); once it is set to nil
// it hears nothing more.
func RunObserver(t *testing.T, open func(t *testing.T) ObservableStore) {
	st := open(t)
	defer st.Close()
	var heard commitLog
	st.SetObserver(&heard)
	const players, keys = 16, 10
	var wg sync.WaitGroup
	for p := range players {
		wg.Go(func() {
			fp := fmt.Sprintf("SHA256:observed%d", p)
			for i := range keys {
				if err := st.AppendJournal(fp, uint64(i), []byte("cmd")); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	heard.mu.Lock()
	commits := append([]int(nil), heard.commits...)
	heard.mu.Unlock()
	sum := 0
	for _, n := range commits {
		if n < 1 {
			t.Errorf("a commit of %d entries was reported", n)
		}
		sum += n
	}
	if sum != players*keys || len(commits) > players*keys || len(commits) == 0 {
		t.Errorf("heard %d commits carrying %d entries; want at most %d commits carrying all %d", len(commits), sum, players*keys, players*keys)
	}
	st.SetObserver(nil)
	if err := st.AppendJournal("SHA256:observed0", keys, []byte("cmd")); err != nil {
		t.Fatal(err)
	}
	heard.mu.Lock()
	defer heard.mu.Unlock()
	if len(heard.commits) != len(commits) {
		t.Error("the observer still heard of a commit after SetObserver(nil)")
	}
}
