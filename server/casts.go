// Recordings of finished games (server/cast), for `ssh host replay ID
// --cast` and the web's /replay/ID.cast: made one or a few at a time,
// since each replays a whole game twice (verified, then drawn), which is
// CPU work a flood of requests must not take from the players.

package server

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/grotto-game/grotto/server/cast"
)

// CastWait is how long a recording waits for a free slot (castSlots)
// before it is refused with cast.ErrBusy.
const CastWait = 10 * time.Second

// castSlots are the recordings being made at once: at most half the
// processors the Go runtime uses (GOMAXPROCS), at least one, over SSH and
// the web together. Its zero value is ready (the command tests build a
// bare Server).
type castSlots struct {
	once sync.Once
	c    chan struct{}
}

// take waits for a free slot, until CastWait or ctx ends, and returns the
// func that gives it back; cast.ErrBusy or ctx's error when none came.
func (cs *castSlots) take(ctx context.Context) (release func(), err error) {
	cs.once.Do(func() { cs.c = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)) })
	t := time.NewTimer(CastWait)
	defer t.Stop()
	select {
	case cs.c <- struct{}{}:
		return func() { <-cs.c }, nil
	case <-t.C:
		return nil, cast.ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Cast returns finished game id (digits, as typed)'s recording made with
// o (server/cast), whole, once a slot is free (castSlots): verified and
// drawn in memory, so that a requester who reads slowly holds no slot.
// Errors: those of ReplayGame (finished.ErrNoSuchGame,
// finished.ErrDailyNotOver, ...), cast.ErrBadOption, cast.ErrBusy, and
// ctx's when the requester has gone.
func (s *Server) Cast(ctx context.Context, id string, o cast.Options) ([]byte, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if _, err := s.replays.games.Find(id); err != nil { // refused before waiting: unknown, today's daily
		return nil, err
	}
	release, err := s.replays.casts.take(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	rg, ended, err := s.replayGame(id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := cast.Write(ctx, &b, cast.Game{Replay: rg, Data: s.data, Ended: ended}, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
