package server

// This file: the web pages (server/web) as this server serves them, with
// --http: their view of the store and the lobby, and their listener.

import (
	"errors"
	"fmt"
	"net"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/web"
)

// webLive is the lobby as the web pages see it (web.Live): the one place
// that decides which games they list and watch, so that games of other
// nodes join here.
type webLive struct{ s *Server }

// Games implements web.Live.
func (l webLive) Games() []tui.LiveGame { return l.s.allGames() }

// Watch implements web.Live; a page counts as a watcher of the game.
func (l webLive) Watch(id uint64) (<-chan []byte, func(), bool) { return l.s.watchGame(id) }

// webReplays opens finished games for the replay pages (web.Replays).
type webReplays struct{ s *Server }

// ReplayGame implements web.Replays, in a visitor's words on error.
func (r webReplays) ReplayGame(id string) (tui.ReplayGame, error) {
	rg, err := r.s.ReplayGame(id)
	if err != nil {
		if !errors.Is(err, ErrNoSuchGame) {
			r.s.log.Error("web: replay", "replay", id, "err", err)
		}
		return rg, errors.New(upper(dumpError(err, id)) + ".")
	}
	return rg, nil
}

// newWeb builds the web server of cfg.HTTP, nil when it is "". Watch pages
// are capped like game sessions (Limits.MaxSessions), separately.
func (s *Server) newWeb() (*web.Server, error) {
	if s.cfg.HTTP == "" {
		return nil, nil
	}
	return web.New(web.Config{Scores: s.store, Live: webLive{s}, Replays: webReplays{s}, Data: s.data, FPS: s.cfg.FPS,
		MaxWatchers: s.cfg.Limits.MaxSessions, Logger: s.log})
}

// listenWeb binds cfg.HTTP, if set.
func (s *Server) listenWeb() error {
	if s.web == nil || s.webLn != nil {
		return nil
	}
	ln, err := net.Listen("tcp", s.cfg.HTTP)
	if err != nil {
		return fmt.Errorf("listen --http %s: %w", s.cfg.HTTP, err)
	}
	s.webLn = ln
	return nil
}

// HTTPAddr returns the address the web pages are served on, once Listen has
// run; nil without --http.
func (s *Server) HTTPAddr() net.Addr {
	if s.webLn == nil {
		return nil
	}
	return s.webLn.Addr()
}
