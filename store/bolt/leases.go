// The bbolt file's leases: one process, one node, so a lease is a number
// in memory (see Store.Claim).

package bolt

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/grotto-game/grotto/store"
)

// boltLeases is the lease table of a Store: in memory, under mu. Fenced
// writes hold mu for reading across their write, so a claim that moves a
// key on (holding mu for writing) waits for them: the check and the write
// are atomic with respect to claims.
type boltLeases struct {
	mu sync.RWMutex
	m  map[string]*boltLease
}

type boltLease struct {
	node    string
	epoch   uint64
	expires time.Time
}

var _ store.Leases = (*Store)(nil)

// Claim grants node the lease on fp (see [Leases.Claim]).
//
// The bbolt file is one process's (its lock says so), and in one process
// the lobby already lets only one live game run per key, so a lease here
// only has to give increasing epochs for the life of the process: the
// table is in memory, costs no fsync, and starts empty at each Open (no
// holder of an older epoch survives a restart). The clock is the
// process's (monotonic readings of time.Now), the only one there is.
func (b *Store) Claim(ctx context.Context, fp, node string, ttl time.Duration) (uint64, error) {
	if fp == "" || ttl <= 0 {
		return 0, fmt.Errorf("claim %q: empty fingerprint or ttl %v not positive", fp, ttl)
	}
	l := &b.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = make(map[string]*boltLease)
	}
	now := time.Now()
	cur := l.m[fp]
	switch {
	case cur == nil:
		cur = &boltLease{epoch: 1}
		l.m[fp] = cur
	case now.Before(cur.expires) && cur.node != node:
		return 0, &store.LeaseHeldError{Fingerprint: fp, Node: cur.node, Expires: cur.expires}
	case !now.Before(cur.expires):
		cur.epoch++
	}
	cur.node, cur.expires = node, now.Add(ttl)
	return cur.epoch, nil
}

// Renew extends node's leases of fps (see [Leases.Renew]).
func (b *Store) Renew(ctx context.Context, node string, fps []string, ttl time.Duration) (lost []string, err error) {
	l := &b.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	exp := time.Now().Add(ttl)
	for _, fp := range fps {
		if cur := l.m[fp]; cur != nil && cur.node == node {
			cur.expires = exp
		} else {
			lost = append(lost, fp)
		}
	}
	return lost, nil
}

// Release ends node's lease of fp at epoch (see [Leases.Release]).
func (b *Store) Release(ctx context.Context, fp, node string, epoch uint64) error {
	l := &b.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	if cur := l.m[fp]; cur != nil && cur.node == node && cur.epoch == epoch {
		cur.expires = time.Time{}
	}
	return nil
}

// Fenced returns fp's game under lease epoch (see [Leases.Fenced]).
func (b *Store) Fenced(fp string, epoch uint64) store.LeasedGame { return store.Fence(b, fp, epoch) }

// fence runs write while holding the lease table for reading, if epoch is
// fp's lease epoch (its owner's, for a slot's key: KeyOwner); else it
// returns an error wrapping ErrFenced.
func (b *Store) fence(call, fp string, epoch uint64, write func() error) error {
	l := &b.leases
	l.mu.RLock()
	defer l.mu.RUnlock()
	if cur := l.m[store.KeyOwner(fp)]; cur == nil || cur.epoch != epoch || epoch == 0 {
		return fmt.Errorf("%s %s at epoch %d: %w", call, fp, epoch, store.ErrFenced)
	}
	return write()
}

// PutSaveAt is PutSave fenced by epoch (see [FencedWrites]).
func (b *Store) PutSaveAt(fp string, epoch uint64, blob []byte) error {
	return b.fence("put save", fp, epoch, func() error { return b.PutSave(fp, blob) })
}

// DeleteSaveAt is DeleteSave fenced by epoch (see [FencedWrites]).
func (b *Store) DeleteSaveAt(fp string, epoch uint64) error {
	return b.fence("delete save", fp, epoch, func() error { return b.DeleteSave(fp) })
}

// AppendJournalAt is AppendJournal fenced by epoch (see [FencedWrites]);
// appends still share bbolt's group commit (many readers of the table).
func (b *Store) AppendJournalAt(fp string, epoch, seq uint64, entry []byte) error {
	return b.fence("append journal", fp, epoch, func() error { return b.AppendJournal(fp, seq, entry) })
}

// FinishGameAt is FinishGame fenced by epoch (see [FencedWrites]).
func (b *Store) FinishGameAt(fp string, epoch uint64, s store.Score) (rank int, err error) {
	err = b.fence("finish game", fp, epoch, func() error {
		rank, err = b.FinishGame(fp, s)
		return err
	})
	return rank, err
}

// QuarantineAt is Quarantine fenced by epoch (see [FencedWrites]).
func (b *Store) QuarantineAt(fp string, epoch uint64, reason string, now time.Time) (key string, err error) {
	err = b.fence("quarantine", fp, epoch, func() error {
		key, err = b.Quarantine(fp, reason, now)
		return err
	})
	return key, err
}
