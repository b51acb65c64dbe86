package session

import (
	"maps"
	"slices"
	"sync"

	"github.com/grotto-game/grotto/game"
)

// PendingEnds holds the games of this server that ended (death or victory)
// while the store refused every write: their end is neither recorded nor
// saved, so the store still holds an earlier turn, when the player was
// alive. A later session of the same key must record the end from here,
// never offer the store's copy. It lives as long as the process: a restart
// before the store takes writes again loses the end (the player is told
// their game could not be saved). Safe for concurrent use; a nil
// *PendingEnds holds nothing.
type PendingEnds struct {
	mu    sync.Mutex
	games map[string]*game.Game // by key fingerprint
}

// NewPendingEnds returns an empty PendingEnds.
func NewPendingEnds() *PendingEnds { return &PendingEnds{games: map[string]*game.Game{}} }

// put keeps g, an ended game, as key fp's pending end.
func (p *PendingEnds) put(fp string, g *game.Game) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.games[fp] = g
}

// take removes and returns key fp's pending end, or nil.
func (p *PendingEnds) take(fp string) *game.Game {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.games[fp]
	delete(p.games, fp)
	return g
}

// Unsaved is the set of keys whose game this server could not save when
// their session ended (the store refused the last write): the store lacks
// turns that game played, which only memory held and the session's end
// let go of. A key leaves the set once a write of its game succeeds again
// (a later session resumes and plays it, saves it, starts a new one, or
// records its end: the store then holds the game the key plays) or once
// its game continues on another node that took it over from this one.
// Server.Shutdown reports the keys left in it, by fingerprint, and exits
// non-zero for them. It lives as long as the process. Safe for concurrent
// use; a nil *Unsaved holds nothing.
type Unsaved struct {
	mu   sync.Mutex
	keys map[string]struct{} // key fingerprints
}

// NewUnsaved returns an empty Unsaved.
func NewUnsaved() *Unsaved { return &Unsaved{keys: map[string]struct{}{}} }

// Mark adds key fp: its session ended with its game not saved.
func (u *Unsaved) Mark(fp string) {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.keys[fp] = struct{}{}
}

// Clear removes key fp: the store holds its game again, or another node
// plays it now.
func (u *Unsaved) Clear(fp string) {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.keys, fp)
}

// Len returns how many keys are in the set.
func (u *Unsaved) Len() int {
	if u == nil {
		return 0
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.keys)
}

// Keys returns the fingerprints in the set, sorted; nil when it is empty.
func (u *Unsaved) Keys() []string {
	if u == nil {
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.keys) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(u.keys))
}
