package session

import (
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
