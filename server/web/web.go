// Package web is grotto's web front door, served from the same binary as
// the SSH server when the host sets --http: the top scores and who is
// playing on one plain HTML page (/), and any live game drawn read-only in
// the browser by xterm.js (/watch/<game>), whose frames come over a
// WebSocket from a watch-only Bubble Tea program shared by every watch page
// of the game at that size (mirror.go).
//
// A browser tied to a key by a one-time link (`ssh host web`) plays that
// key's game on /play, its session run by the server (Players) as an SSH
// session's.
//
// Files by concern: web.go (Config, Server, routes, headers, shutdown),
// limits.go (what every connection may hold: at once, per address, per
// request), pages.go (the HTML pages and their templates), watch.go (the watch
// WebSocket and its limits), mirror.go (the shared program of a game's
// watch pages at one size, its output fanned out to each), tokens.go (play links and the play cookie),
// play.go (the play page, its WebSocket, the Seat), bridge.go (a Bubble
// Tea program whose terminal is a WebSocket), assets/ (xterm.js and its licence, refreshed by
// assets/refresh.sh; the page's own script and style).
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"github.com/coder/websocket"
	"github.com/realclientip/realclientip-go"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/store"
)

// Scores is the high-score table as the front page reads it; store.Scores
// implements it.
type Scores interface {
	// TopScores returns up to n scores, best first.
	TopScores(n int) ([]store.Score, error)
}

// Live is the live games as the web shows them: the list on the front page
// and the frames of one game for its watch page. The server adapts its
// lobby to it; a lobby of many nodes lists and watches their games too.
type Live interface {
	// Games lists the live games (tui.LiveGame.ID is the id in
	// /watch/<id>), today's daily marked Hidden.
	Games() []tui.LiveGame
	// Watch subscribes to game id's frames (the newest only, each shared
	// by every watcher of the game: read, never changed); the channel
	// closes when the game ends or becomes hidden (today's daily); stop
	// unsubscribes and may be called more than once. ok is false when id
	// is not live or is hidden. A subscription counts as a watcher of the
	// game.
	Watch(id uint64) (frames <-chan *frame.Frame, stop func(), ok bool)
}

// Config is what the web server needs.
type Config struct {
	Scores Scores // the high-score table
	Live   Live   // the live games
	// Ready says whether this node should be sent new players, for
	// GET /readyz (HealthRoutes); nil means always.
	Ready func() error
	// Replays opens finished games for /replay/{id} (replay.go); nil
	// serves no replay pages and links none.
	Replays Replays
	// Careers reads the player pages, /player/{name} (player.go); nil
	// serves none and links none.
	Careers Careers
	// Events returns the live events feed's recent events, oldest first
	// (server/events Hub.Recent), for the front page and
	// /events/recent.json (events.go); nil shows none.
	Events func() []events.Event
	// Casts makes the recordings of /replay/{id}.cast (cast.go); nil (or
	// Replays nil) serves none and links none.
	Casts Casts
	Data  *content.Tables // the game data of the watch and replay pages; nil means content.Default()
	// FPS is the most frames per second a replay page is drawn at (as an
	// SSH session's), and a watch page at most WatchFPS of them; 0 means
	// 30.
	FPS int
	// MaxWatchers caps the watch pages open at once (the watchers'
	// budget); more are refused, their WebSocket closed at once with
	// status 1013 and a reason the page shows. 0 means
	// DefaultMaxWatchers.
	MaxWatchers int
	// MaxReplays caps the replay pages open at once (the replays'
	// budget, apart from the watchers': each runs a replay program of its
	// own); more are refused as watchers are, with TooManyReplays. 0 means
	// DefaultMaxReplays.
	MaxReplays int
	// Logger receives the web server's log; nil means stderr.
	Logger *log.Logger
	// Now returns the current time (idle times); nil means time.Now.
	Now func() time.Time
	// WriteTimeout is how long a write to a watch page may take before
	// the page is dropped; 0 means WriteTimeout.
	WriteTimeout time.Duration
	// ReadTimeout is how long a request may take to arrive, headers and
	// all, before its connection is closed; 0 means ReadTimeout.
	ReadTimeout time.Duration
	// PageWriteTimeout is how long a page's answer may take to be sent
	// (a WebSocket, once upgraded, has WriteTimeout per write instead);
	// 0 means PageWriteTimeout.
	PageWriteTimeout time.Duration
	// MaxConns caps the connections the web pages hold at once, whatever
	// their address (limits.go); more are answered 503 with Busy and
	// closed. 0 means DefaultMaxConns.
	MaxConns int
	// JoinsPerSec is how many watch pages may start a second, server-wide,
	// after a burst of JoinBurst: a page beyond waits its turn, up to
	// JoinWait, then is refused with TooManyJoining. 0 means
	// DefaultJoinsPerSec, DefaultJoinBurst and DefaultJoinWait.
	JoinsPerSec float64
	JoinBurst   int
	JoinWait    time.Duration
	// Counted is told what became of each connection at accept and of
	// each request refused for its body: one of the Conn* results
	// (limits.go), for the host's metrics. nil tells no one.
	Counted func(result string)
	// Tokens keeps the play links and sessions (tokens.go); with Players,
	// browsers may play. nil: browsers only watch.
	Tokens store.WebTokens
	// Players runs the play pages' sessions (play.go).
	Players Players
	// Chats opens live games' chats for the watch pages (chat.go); nil
	// shows none.
	Chats Chats
	// Gate admits each connection Serve accepts, and each WebSocket
	// (play, watch, replay) that comes through a trusted proxy, under
	// the server's per-address limits (limits.go); nil admits every one.
	Gate Gate
	// BaseURL is where players reach these pages (--http-url), e.g.
	// https://play.example.org; "" when not set. Cookies are Secure when
	// it is https.
	BaseURL string
	// TrustedProxies are the HTTP reverse proxies whose X-Forwarded-For
	// is believed (clientaddr.go): a request from one of them is the
	// client's the header names to Gate; anyone else's header is ignored.
	TrustedProxies []netip.Prefix
	// SSH returns the command that reaches the SSH server, without
	// arguments, e.g. "ssh -p 2222 play.example.org"
	// (server.Config.SSHCommand): pages that send a visitor for a play
	// link show it followed by "web", in a <code> element. nil means
	// "ssh" and BaseURL's host name (or <host>).
	SSH func() string
}

// Gate holds the connections of each client address to the server's
// per-address limits (--max-conns-per-addr, --conn-rate), counted with the
// address's SSH connections: each TCP connection as it is accepted, except
// a trusted proxy's, whose WebSockets count instead as the browsers their
// X-Forwarded-For names (clientAddr).
type Gate interface {
	// Enter counts one more connection of addr in and returns leave, which
	// counts it out (once it has closed); or an error whose text (one
	// sentence) the client is told (an HTTP 429, or a WebSocket's close
	// reason): too many at once, or too many new ones of late.
	Enter(addr net.Addr) (leave func(), err error)
}

// Limits of the web server.
const (
	// DefaultMaxWatchers is Config.MaxWatchers' default.
	DefaultMaxWatchers = 1000
	// DefaultMaxReplays is Config.MaxReplays' default.
	DefaultMaxReplays = 32
	// ReplayKeysPerSec is how many keys a second a replay page's program
	// is given at most, after a burst of ReplayKeyBurst: a flood of keys
	// is read no faster (the page waits), so that no page makes its
	// program simulate and draw without pause.
	ReplayKeysPerSec = 10
	// ReplayKeyBurst is how many keys a replay page may send at once
	// before ReplayKeysPerSec applies.
	ReplayKeyBurst = 10
	// TopScores is how many scores the front page lists.
	TopScores = 20
	// MaxMessage is the largest WebSocket message a page may send, in
	// bytes (a resize is about 25): a larger one closes the connection
	// with status 1009 (RFC 6455, section 7.4.1).
	MaxMessage = 1024
	// MaxPlayMessage is the largest message a play page may send, in
	// bytes: what the player typed or pasted. A larger one closes the
	// page with status 1009 and TooBigPaste.
	MaxPlayMessage = 16 << 10
	// MaxPaste is the most bytes watch.js puts in one message of keys: it
	// splits a longer paste (xterm.js's onData) into several, well under
	// MaxPlayMessage. Keep it equal to watch.js's maxKeys.
	MaxPaste = 4096
	// ShutdownWatch is the close reason of a watch page when the server
	// shuts down (status 1001, Going Away); the page keeps its last frame.
	// It promises no return: a stop for good and a restart look alike.
	ShutdownWatch = "The server is shutting down; reload the page later to watch again."
	// ShutdownReplay is ShutdownWatch for a replay page.
	ShutdownReplay = "The server is shutting down; reload the page later to see the replay again."
	// TooBigPaste is the close reason of a play page's message over
	// MaxPlayMessage.
	TooBigPaste = "That paste was too large; reload the page and paste less at once."
	// WriteTimeout is Config.WriteTimeout's default: how long a write to
	// a page may take. A page that reads slower only misses frames (the
	// lobby keeps the newest), and one that stops reading for this long is
	// dropped.
	WriteTimeout = 10 * time.Second
	// ReadTimeout is Config.ReadTimeout's default.
	ReadTimeout = 5 * time.Second
	// PageWriteTimeout is Config.PageWriteTimeout's default: xterm.js,
	// the largest answer (about 300 KB), reaches a slow phone in it.
	PageWriteTimeout = 30 * time.Second
	// MaxHeaderBytes is the most bytes of headers a request may send
	// (net/http answers 431 beyond it, after a little slack).
	MaxHeaderBytes = 16 << 10
	// DefaultJoinsPerSec, DefaultJoinBurst and DefaultJoinWait are
	// Config.JoinsPerSec's, JoinBurst's and JoinWait's defaults: a
	// crowd of 2,000 arriving at once is in within 10–20 s, and players
	// never pay for more than 100 joins a second.
	DefaultJoinsPerSec = 100
	DefaultJoinBurst   = 100
	DefaultJoinWait    = 20 * time.Second
	// TooManyJoining is the close reason (status 1013) of a watch page
	// that would wait longer than Config.JoinWait to join.
	TooManyJoining = "Many people are starting to watch right now; reload the page in a moment."
	// DefaultMaxConns is Config.MaxConns' default.
	DefaultMaxConns = 10000
	// NoBody is what a request with a body is answered (413, Content
	// Too Large): no page here takes one.
	NoBody = "grotto's web pages take no request body; send the request without one."
	// Busy is what a connection beyond Config.MaxConns is answered (503).
	Busy = "grotto's web pages are too busy right now; please try again in a minute."
)

//go:embed assets/*.js assets/*.css assets/*.svg assets/LICENSE.* assets/VERSIONS
var assets embed.FS

//go:embed templates/*.html
var templates embed.FS

// Server is the web server. Its zero value is not usable: call New.
type Server struct {
	cfg     Config
	log     *log.Logger
	http    *http.Server
	pages   *pages
	slots   chan struct{} // one token per open watch page (MaxWatchers)
	replays chan struct{} // one token per open replay page (MaxReplays)
	// replayModel, when set (tests), wraps each replay page's model.
	replayModel func(tea.Model) tea.Model
	// secure is true when BaseURL is https: cookies are Secure.
	secure bool
	// forwarded reads X-Forwarded-For from TrustedProxies (clientaddr.go).
	forwarded realclientip.RightmostTrustedRangeStrategy
	// hostName is BaseURL's host name, as players type it after ssh.
	hostName string

	ctx    context.Context // cancelled by Shutdown: every watch page closes
	cancel context.CancelFunc

	mu      sync.Mutex
	closing bool                      // Shutdown or Close has begun: no new watch page
	running map[*tea.Program]struct{} // the replay pages' programs (Announce)
	socks   sync.WaitGroup            // watch pages being served (added under mu, before closing)

	mirrors *mirrors // the watch pages' shared programs (mirror.go)
	// waiting are the connections that hold a place with no request
	// under way, which a newcomer may take (limits.go).
	waiting waitingConns
	// joins paces the watch pages that start (Config.JoinsPerSec).
	joins *rate.Limiter
	// fullSaid says at most once per 10 s that pages past a budget
	// were refused (admitViewer).
	fullSaid rate.Sometimes
}

// withDefaults is cfg with every unset (zero or negative) field given its
// default: the default tables, 30 frames a second, DefaultMaxWatchers,
// DefaultMaxReplays, a logger to stderr, time.Now, the timeouts, the join
// rate and DefaultMaxConns.
func (cfg Config) withDefaults() Config {
	if cfg.Data == nil {
		cfg.Data = content.Default()
	}
	if cfg.FPS <= 0 {
		cfg.FPS = 30
	}
	if cfg.MaxWatchers <= 0 {
		cfg.MaxWatchers = DefaultMaxWatchers
	}
	if cfg.MaxReplays <= 0 {
		cfg.MaxReplays = DefaultMaxReplays
	}
	if cfg.Logger == nil {
		cfg.Logger = log.New(os.Stderr)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = WriteTimeout
	}
	if cfg.JoinsPerSec <= 0 {
		cfg.JoinsPerSec = DefaultJoinsPerSec
	}
	if cfg.JoinBurst <= 0 {
		cfg.JoinBurst = DefaultJoinBurst
	}
	if cfg.JoinWait <= 0 {
		cfg.JoinWait = DefaultJoinWait
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = ReadTimeout
	}
	if cfg.PageWriteTimeout <= 0 {
		cfg.PageWriteTimeout = PageWriteTimeout
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	return cfg
}

// New returns the web server of cfg; it does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Scores == nil || cfg.Live == nil {
		return nil, errors.New("web.New needs the scores and the live games")
	}
	cfg = cfg.withDefaults()
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	base, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("web: base URL %q: %w", cfg.BaseURL, err)
	}
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	forwarded, err := forwardedStrategy(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, forwarded: forwarded, log: cfg.Logger.With("web", true), pages: p, slots: make(chan struct{}, cfg.MaxWatchers), replays: make(chan struct{}, cfg.MaxReplays),
		secure: base.Scheme == "https", hostName: base.Hostname(), running: map[*tea.Program]struct{}{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.mirrors = newMirrors(s.ctx, cfg.Data, min(cfg.FPS, WatchFPS), s.log, cfg.Live)
	s.http = s.httpServer() // limits.go
	s.joins = rate.NewLimiter(rate.Limit(cfg.JoinsPerSec), cfg.JoinBurst)
	s.fullSaid = rate.Sometimes{Interval: 10 * time.Second}
	return s, nil
}

// Handler returns the routes, with the security headers on every response
// and a request with a body refused (413, NoBody; limits.go):
//
//	GET /                       the top scores and the live games
//	GET /watch/{game}           a live game's watch page (404 for an unknown game)
//	GET /watch/{game}/ws        its WebSocket (watch.go)
//	GET /replay/{id}            a finished game's replay page, with Replays (replay.go)
//	GET /replay/{id}.cast       its asciinema recording, with Casts (cast.go)
//	GET /replay/{id}/ws         the replay page's WebSocket
//	GET /play/{token}           a one-time link: sets the play cookie, on to /play (tokens.go)
//	GET /play                   the play page (play.go)
//	GET /play/ws                its WebSocket: the key's session
//	GET /player/{name}          a player's page (player.go)
//	GET /assets/{file}          xterm.js, its licence, the page's script and style
//	GET /events/recent.json     the front page's newest events, with Events (events.go)
//	GET /healthz, GET /readyz   the health endpoints (health.go)
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	HealthRoutes(mux, s.cfg.Ready) // health.go
	if s.cfg.Events != nil {
		mux.HandleFunc("GET /events/recent.json", s.recentEvents) // events.go
	}
	mux.HandleFunc("GET /watch/{game}", s.watchPage)
	mux.HandleFunc("GET /watch/{game}/ws", s.watchSocket)
	mux.HandleFunc("GET /play/{token}", s.redeemLink)
	mux.HandleFunc("GET /play", s.playPage)
	mux.HandleFunc("GET /play/ws", s.playSocket)
	if s.cfg.Careers != nil {
		mux.HandleFunc("GET /player/{name}", s.playerPage)
	}
	if s.cfg.Replays != nil {
		mux.HandleFunc("GET /replay/{id}", s.replayPage)
		mux.HandleFunc("GET /replay/{id}/ws", s.replaySocket)
	}
	files := http.FileServerFS(assets)
	mux.Handle("GET /assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") { // a directory: no listing
			s.notFound(w, "No such page.")
			return
		}
		files.ServeHTTP(w, r)
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.notFound(w, "There is no such page here.")
	})
	return s.noBody(secure(mux)) // limits.go
}

// secure sets the headers every response carries: nothing is loaded from
// elsewhere (Content-Security-Policy default-src 'self', which covers the
// same-origin WebSocket too: CSP Level 3, "connect-src"), no framing, no
// sniffing, no referrer. Inline styles are allowed, inline scripts are not:
// xterm.js's DOM renderer colours cells with style attributes (true
// colour), which style-src 'self' alone blocks (xtermjs/xterm.js#4445).
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// Serve answers HTTP on ln until Shutdown; it then returns nil. Every
// connection is held to the limits of limits.go: Config.MaxConns at once,
// Config.Gate's per address, the timeouts and sizes of a request.
func (s *Server) Serve(ln net.Listener) error {
	s.log.Info("web pages are served", "addr", "http://"+ln.Addr().String(), "max_conns", s.cfg.MaxConns)
	err := s.http.Serve(newLimitListener(ln, s))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("web: %w", err)
}

// Shutdown stops the web server: no new request is accepted, every watch
// and replay page is closed with ShutdownWatch or ShutdownReplay
// (WebSocket status 1001), its last frame left on the page,
// and it waits for them and for requests in flight until ctx expires.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopWatching()
	err := s.http.Shutdown(ctx)
	done := make(chan struct{})
	go func() { s.socks.Wait(); s.mirrors.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		if err == nil {
			err = ctx.Err()
		}
	}
	return err
}

// Close closes the web server at once, watch pages included.
func (s *Server) Close() error {
	s.stopWatching()
	return s.http.Close()
}

// stopWatching refuses new watch pages and closes the open ones.
func (s *Server) stopWatching() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cancel()
}

// enter admits r's WebSocket through Config.Gate when r came through a
// trusted proxy, as the browser its X-Forwarded-For names (clientAddr);
// any other connection was counted under the Gate as it was accepted
// (limits.go), and its WebSocket is that connection. leave counts it
// out, refused is the sentence for the page (nil: admitted). The caller
// accepts the WebSocket either way and, refused, closes it with status
// 1013, Try Again Later (RFC 6455 section 11.7; the IANA WebSocket Close
// Code Number registry), and the sentence, which the page shows.
func (s *Server) enter(r *http.Request) (leave func(), refused error) {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if s.cfg.Gate == nil || err != nil || !s.trusted(peer.Addr()) {
		return func() {}, nil
	}
	leave, refused = s.cfg.Gate.Enter(s.clientAddr(r))
	if refused != nil {
		return func() {}, refused
	}
	return leave, nil
}

// refuse accepts r's WebSocket only to close it at once with status 1013
// and why, a sentence the page shows (enter).
func refuse(w http.ResponseWriter, r *http.Request, why error) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	conn.Close(websocket.StatusTryAgainLater, reason(why.Error()))
}

// Announce shows a host's broadcast (text, made safe by the caller) on
// every watch and replay page open, as a banner (tui.BannerMsg), and
// returns how many pages it was sent to (a watch page's is its shared
// program's: mirror.go). Play pages are sessions of the server,
// which reaches them through the lobby.
func (s *Server) Announce(text string) int {
	s.mu.Lock()
	progs := make([]*tea.Program, 0, len(s.running))
	for p := range s.running {
		progs = append(progs, p)
	}
	s.mu.Unlock()
	for _, p := range progs {
		p.Send(tui.BannerMsg{Text: text})
	}
	return len(progs) + s.mirrors.announce(text)
}

// register counts prog among the running pages (Announce) until the
// returned func is called.
func (s *Server) register(prog *tea.Program) (unregister func()) {
	s.mu.Lock()
	s.running[prog] = struct{}{}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.running, prog)
		s.mu.Unlock()
	}
}

// startWatching counts a new watch page in, false once the server is
// stopping; the page calls s.socks.Done when it has gone.
func (s *Server) startWatching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.socks.Add(1)
	return true
}
