package server

// This file: the web pages (server/web) as this server serves them, with
// --http: their view of the store and the lobby, their listener, and the
// browsers that play (webPlayers, webSeat): each one a session on the
// same path as an SSH session (play, server.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cast"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// webLive is the lobby as the web pages see it (web.Live): the one place
// that decides which games they list and watch, so that games of other
// nodes join here.
type webLive struct{ s *Server }

// Games implements web.Live.
func (l webLive) Games() []tui.LiveGame { return l.s.place.games() }

// Watch implements web.Live; a page counts as a watcher of the game.
func (l webLive) Watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	return l.s.place.watch(id)
}

// Chat implements web.Chats: a watch page's chat of game id, as a
// watcher of key fp ("" reads only: Server.watcherChat).
func (l webLive) Chat(id uint64, fp string) (tui.ChatRoom, bool) { return l.s.watcherChat(id, fp) }

// webReplays opens finished games for the replay pages (web.Replays).
type webReplays struct{ s *Server }

// ReplayGame implements web.Replays, in a visitor's words on error.
func (r webReplays) ReplayGame(id string) (tui.ReplayGame, error) {
	rg, err := r.s.ReplayGame(id)
	if err != nil {
		if !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
			r.s.log.Error("web: replay", "replay", id, "err", err)
		}
		return rg, errors.New(finished.Sentence(finished.WebProblem(err, id)))
	}
	return rg, nil
}

// Cast implements web.Casts, in a visitor's words on error but
// cast.ErrBusy and ctx's.
func (r webReplays) Cast(ctx context.Context, id string, o cast.Options) ([]byte, error) {
	rec, err := r.s.Cast(ctx, id, o)
	switch {
	case err == nil, errors.Is(err, cast.ErrBusy), ctx.Err() != nil:
		return rec, err
	case errors.Is(err, cast.ErrBadOption): // the page checked them: a bug
		r.s.log.Error("web: replay cast", "replay", id, "err", err)
	case !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver):
		r.s.log.Error("web: replay cast", "replay", id, "err", err)
	}
	return nil, errors.New(finished.Sentence(finished.WebProblem(err, id)))
}

// ReplayTitle implements web.Replays: the player's name of finished game
// id, read from the store's row alone (no history decoded, nothing
// replayed), or the error ReplayGame would give for an unknown game or a
// daily not over yet; a record damaged or of other rules is found out by
// ReplayGame, once the socket is admitted.
func (r webReplays) ReplayTitle(id string) (string, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return "", errors.New(finished.Sentence(finished.WebProblem(fmt.Errorf("%w: %q", finished.ErrNoSuchGame, id), id)))
	}
	f, err := r.s.store.FinishedGame(n)
	if errors.Is(err, store.ErrCorrupt) { // rare: ReplayGame sets it aside and says so
		rg, err := r.ReplayGame(id)
		return rg.Name, err
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		err = fmt.Errorf("%w: #%d", finished.ErrNoSuchGame, n)
	case err == nil && f.Score.Daily != "" && !finished.DailyOver(f.Score.Daily, r.s.clock()):
		err = finished.ErrDailyNotOver
	case err != nil:
		r.s.log.Error("web: replay", "replay", id, "err", err)
	}
	if err != nil {
		return "", errors.New(finished.Sentence(finished.WebProblem(err, id)))
	}
	return f.Score.Name, nil
}

// newWeb builds the web server of cfg.HTTP, nil when it is "". Watch
// pages are capped by the watchers' budget (Limits.MaxWatchers,
// --max-watchers), replay pages by the replays' (Limits.MaxReplays,
// --max-replays), apart from game sessions.
func (s *Server) newWeb() (*web.Server, error) {
	if s.cfg.HTTP == "" {
		return nil, nil
	}
	proxies, _ := parseRanges("--http-trusted-proxy", s.cfg.HTTPTrustedProxy) // Validate checked it
	nofile := openFileLimit()
	maxConns := s.cfg.Limits.MaxHTTPConns
	if maxConns == 0 {
		maxConns = httpConnBudget(nofile)
	} else if nofile > 0 && uint64(maxConns) > (nofile-min(nofile, fdReserve))/2 {
		s.log.Warn("--http-max-conns lets the web pages take more than half the open-file limit: a flood of the web port could leave SSH players unable to log in; raise the limit (ulimit -n) or lower --http-max-conns",
			"http_max_conns", maxConns, "open_file_limit", nofile)
	}
	watchers, replays := s.cfg.Limits.watchers(), s.cfg.Limits.replays()
	if fit := pageBudget(watchers, replays, maxConns); fit < watchers {
		s.log.Warn("--max-watchers is lowered so that open pages leave a quarter of --http-max-conns for other visitors; raise the open-file limit (ulimit -n) or --http-max-conns to allow more",
			"max_watchers", watchers, "watchers", fit, "max_replays", replays, "http_max_conns", maxConns)
		watchers = fit
	}
	for _, r := range []string{web.ConnAdmitted, web.ConnTookWaiting, web.ConnRefusedBusy, web.ConnRefusedAddress, web.ConnRefusedBody} {
		s.metrics.WebConnections.WithLabelValues(r) // each reads 0 from the start
	}
	return web.New(web.Config{Now: s.clock, TrustedProxies: proxies, Scores: s.store, Live: webLive{s}, Replays: webReplays{s}, Casts: webReplays{s}, Careers: s.replays.games, Events: s.feed.hub.Recent, Data: s.data, FPS: s.cfg.FPS,
		MaxWatchers: watchers, MaxReplays: replays, Logger: s.log, MaxConns: maxConns,
		Counted: func(result string) { s.metrics.WebConnections.WithLabelValues(result).Inc() },
		Tokens:  s.store, Players: webPlayers{s}, Chats: webLive{s}, Gate: s.front.guard, BaseURL: s.cfg.HTTPURL,
		SSH: func() string { return s.sshCommand(false) }, Ready: s.readiness})
}

// pageBudget returns the watchers' budget that fits beside replays
// replay pages in maxConns web connections, keeping a quarter of them for
// pages and links (a WebSocket holds its connection for as long as it is
// open): watchers, or less, but at least 1.
func pageBudget(watchers, replays, maxConns int) int {
	room := maxConns - maxConns/4 - replays
	return max(min(watchers, room), 1)
}

// webBase is the base URL of the web pages: --http-url, else http:// and
// the --http address (its port once listening: --http :0 in tests), with
// "localhost" for a host that listens on every address.
func (s *Server) webBase() string {
	if s.cfg.HTTPURL != "" {
		return strings.TrimSuffix(s.cfg.HTTPURL, "/")
	}
	addr := s.cfg.HTTP
	if s.web.ln != nil {
		addr = s.web.ln.Addr().String()
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost" // listening everywhere: the host's own name is not known here
	}
	return "http://" + net.JoinHostPort(host, port)
}

// fdReserve is how many file descriptors httpConnBudget keeps, beside
// SSH's half, for the store, the node channel, the listeners, metrics
// scrapes and the log.
const fdReserve = 256

// httpConnBudget is the default of Limits.MaxHTTPConns under an
// open-file limit of nofile (RLIMIT_NOFILE; 0 when unknown): half of what
// is left after fdReserve, the other half being SSH's; at most
// web.DefaultMaxConns, at least 16.
func httpConnBudget(nofile uint64) int {
	if nofile == 0 {
		return web.DefaultMaxConns
	}
	room := 0
	if nofile > fdReserve {
		room = int(min((nofile-fdReserve)/2, web.DefaultMaxConns))
	}
	return max(room, 16)
}

// openFileLimit is the process's open-file limit (the soft RLIMIT_NOFILE,
// which the Go runtime raises to the hard one at start); 0 when it cannot
// be read.
func openFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return lim.Cur
}

// webPlayers runs the play pages' sessions (web.Players) on the session
// path of SSH sessions (play, server.go).
type webPlayers struct{ s *Server }

// Admit implements web.Players: a banned key is refused.
func (p webPlayers) Admit(fp string) error {
	if p.s.isBanned(fp) {
		return errors.New(bannedLine)
	}
	return nil
}

// Play implements web.Players: a browser is a session like any other,
// counted by --max-sessions.
func (p webPlayers) Play(seat *web.Seat) {
	if !p.s.front.guard.EnterSession() {
		p.s.log.Warn("web: a play page was refused: the server is full", "fp", seat.Fingerprint())
		seat.End(p.s.front.guard.FullLine(), false)
		return
	}
	defer p.s.front.guard.LeaveSession()
	start := time.Now()
	p.s.log.Info("web: a browser plays", "fp", seat.Fingerprint())
	p.s.play(webSeat{seat})
	p.s.log.Info("web: a browser stopped playing", "fp", seat.Fingerprint(), "duration", time.Since(start).Round(time.Millisecond))
}

// browserCount counts, by key fingerprint, the sessions playing in a
// browser, for grotto_sessions{kind="browser"} (metrics.go): a key is
// forgotten once its last one ends. Its zero value is ready.
type browserCount struct {
	mu sync.Mutex
	n  map[string]int // > 0 for every key present
}

// enter counts one more browser session of fp; leave counts it out.
func (b *browserCount) enter(fp string) (leave func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == nil {
		b.n = map[string]int{}
	}
	b.n[fp]++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.n[fp]--; b.n[fp] <= 0 {
				delete(b.n, fp)
			}
		})
	}
}

// playing says whether a browser session of fp is counted.
func (b *browserCount) playing(fp string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n[fp] > 0
}

// webSeat is a browser's play page as a session's seat (seat.go).
type webSeat struct{ t *web.Seat }

func (w webSeat) who() identity                       { return identity{fp: w.t.Fingerprint()} }
func (w webSeat) browser() bool                       { return true }
func (w webSeat) programOptions() []tea.ProgramOption { return w.t.Options() }
func (w webSeat) keys() (context.Context, io.Reader) {
	return w.t.Context(), w.t.Keys()
}

// conn is nil: a page that goes away closes its WebSocket, and one that
// stops reading is dropped by the bridge's write timeout.
func (w webSeat) conn() lobby.Conn { return nil }

// run runs prog on the page; the session saves whatever ended it (an
// error is the program's own failure or the page going away).
func (w webSeat) run(prog *tea.Program)     { w.t.Run(prog) }
func (w webSeat) fail(line string)          { w.t.End(line, false) }
func (w webSeat) end(line string, code int) { w.t.End(line, code == 0) }

// listenWeb binds cfg.HTTP, if set.
func (s *Server) listenWeb() error {
	if s.web.srv == nil || s.web.ln != nil {
		return nil
	}
	ln, err := s.bind(BindHTTP, s.cfg.HTTP)
	if err != nil {
		return fmt.Errorf("listen --http %s: %w", s.cfg.HTTP, err)
	}
	s.web.ln = ln
	return nil
}

// HTTPAddr returns the address the web pages are served on, once Listen has
// run; nil without --http.
func (s *Server) HTTPAddr() net.Addr {
	if s.web.ln == nil {
		return nil
	}
	return s.web.ln.Addr()
}
