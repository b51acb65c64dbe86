// Package server is grotto's SSH front door: it wires the wish server,
// its connection guard (server/guard), the middleware chain, public-key
// identity, the live games (server/lobby), the SSH commands
// (server/sshcmd), the finished games (server/finished), the web pages
// (server/web) and graceful shutdown. It
// knows nothing of the game's rules: each session gets a tui.Model on a
// session (server/session), and a session's keys pass through
// server/input, the input defence.
//
// Files by concern:
//   - lifecycle: server.go (New, Listen, Serve, the session's play),
//     shutdown.go (Shutdown's order), health.go (/readyz and the drain
//     that begins Shutdown), control.go (the control socket: grotto
//     backup), bind.go (listening sockets), config.go
//     (Config and its Validate), limits.go (the abuse limits and their
//     defaults), hints.go (the command players are told to type);
//   - the chain: chain.go (the middleware, in order), auth.go (keys and
//     identity), bans.go (banned keys), pty.go (the terminal check);
//   - commands: commands.go (the server as the host of the commands'
//     table, server/sshcmd, and `web`'s link), hosttools.go and
//     hosttools_cluster.go (the admins' kick and broadcast), replays.go
//     (the finished games, server/finished), replayplayer.go (`ssh -t
//     host replay ID`), daily.go (starting the daily), settings.go (a
//     player's settings);
//   - placement: placement.go (where a key's game lives: claim, take-over,
//     listing and watching every node's games), lobby.go (each session's
//     window on it), leases.go (the node's store leases), nodes.go (the
//     node channel and the other nodes' games), seat.go (an SSH session or
//     a browser as the terminal of a session);
//   - the live events feed: feed.go (milestones into events: the hub,
//     the webhook, the other nodes), nodes_events.go (events over the
//     node channel);
//   - adapters: web.go (the web pages, browsers that play), metrics.go
//     (Prometheus metrics on --metrics, server/metrics).
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/guard"
	"github.com/grotto-game/grotto/server/input"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/metrics"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/server/sshcmd"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// Files inside the data dir.
const (
	DBFile      = "grotto.db"
	HostKeyFile = "host_ed25519"
)

// Server is a running grotto: the SSH server, the store, the live sessions.
type Server struct {
	cfg   Config
	log   *log.Logger
	store Database
	data  *content.Tables // the game's tables (monsters, items, spawns), as the host loaded them
	// front is the SSH side: the server, its listener and its connection
	// guard.
	front front
	// policy is who may do what: the admins' and the banned keys, swapped
	// whole on reload (auth.go, bans.go).
	policy policy
	// place is where each key's game lives: the live games here, this
	// node's leases and its place among the nodes (placement.go).
	place placement
	// ends are the games whose end could not be written (server/session).
	ends ends
	// replays are the finished games kept (server/finished) and the
	// replay programs running (replayplayer.go).
	replays replays
	// web serves the web pages with --http (web.go).
	web webSide
	// metrics are the server's Prometheus instruments, served on
	// --metrics (metrics.go).
	metrics metricsSide
	// life orders Serve's start and Shutdown (shutdown.go).
	life life
	// ctl is the control socket (control.go), once Listen made it.
	ctl *control
	// feed is the live events feed: its hub, IDs and webhook (feed.go).
	feed feed
	// scoreChanges moves whenever the score table may have changed: a
	// game of this node recorded, a score removed or restored, a death or
	// victory heard from another node. The titles read the table again
	// only when it moved (scoreBoard.Changes).
	scoreChanges atomic.Uint64
}

// front is the server's SSH side.
type front struct {
	srv *ssh.Server
	ln  net.Listener // bound by Listen
	// guard admits connections, filters their requests and caps sessions
	// per address and in all (server/guard).
	guard *guard.Guard
}

// policy holds the keys the host lists, each set replaced whole on a
// reload (SIGHUP) and read without a lock.
type policy struct {
	admins atomic.Pointer[keys.AdminSet] // --admin-keys (auth.go)
	banned atomic.Pointer[keys.AdminSet] // --banned-keys (bans.go)
}

// replays are the finished games kept and the replay programs running.
type replays struct {
	games   *finished.Games
	running replayPrograms
	casts   castSlots // the recordings being made (casts.go)
}

// ends are the games whose end the store did not take.
type ends struct {
	// unsaved holds the keys whose session ended with a game that could
	// not be saved and that no write has saved since; Shutdown names them
	// and the process exits non-zero.
	unsaved *session.Unsaved
	// pending keeps the games that ended while the store refused every
	// write, for the key's next session to record.
	pending *session.PendingEnds
}

// webSide is the web pages as this server serves them (web.go).
type webSide struct {
	srv *web.Server  // nil without --http
	ln  net.Listener // bound by Listen
	// browsers counts, by key fingerprint, the sessions playing in a
	// browser, for grotto_sessions{kind="browser"}.
	browsers browserCount
}

// metricsSide is the server's Prometheus instruments and the --metrics
// port that serves them (metrics.go).
type metricsSide struct {
	*metrics.Metrics
	ln    net.Listener // bound by Listen; nil without --metrics
	http  *http.Server
	conns connCount // http's connections (tests)
}

// life is where Serve and Shutdown meet: stopped once Shutdown has begun,
// served once Serve has started everything.
type life struct {
	mu              sync.Mutex
	stopped, served bool
	// draining is set once Shutdown has begun: /readyz says 503 while
	// the server still serves for Config.Drain (health.go).
	draining atomic.Bool
	// cut ends the drain early (CutDrain); cutOnce closes it once.
	cut     chan struct{}
	cutOnce sync.Once
}

// FileCheckEvery is how often a running server checks that its database
// file is still the one it opened (see store.ErrFileGone).
const FileCheckEvery = 2 * time.Second

// Database is what a server needs of its store: every role, Close (at
// Shutdown), and CheckFile, which returns store.ErrFileGone once the file
// the store opened is no longer at its path. *bolt.Store implements it;
// *postgres.Store (store/postgres), a store without a file of its own,
// returns nil. Its leases (store.Leases) keep each key's game on one node
// (leases.go); its web tokens (store.WebTokens) tie browsers to keys
// (`ssh host web`, server/web); its moderation (store.Moderation) keeps
// the admins' acts and bans (moderation.go).
type Database interface {
	store.Store
	store.Leases
	store.WebTokens
	store.Moderation
	CheckFile() error
}

// New builds the SSH server on db and the game data, loading or creating
// the host key (Config.HostKeyPath, keys.LoadOrCreateHostKey); it does not
// listen yet. It fills cfg's defaults and validates it (Config.Validate).
// On success the server owns db and Shutdown closes it; on error the
// caller still does. Errors: an invalid cfg, a data dir that cannot be
// made, an unreadable admin-keys file or a banned-keys file that does not
// parse (naming it), a host key file that
// cannot be read or made or holds no private key (a *keys.HostKeyError
// naming it).
func New(cfg Config, db Database, data *content.Tables) (*Server, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil || data == nil {
		return nil, errors.New("server.New needs a database and the game data")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Logger, store: db, data: data, life: life{cut: make(chan struct{})}, feed: newFeed(cfg),
		ends: ends{pending: session.NewPendingEnds(), unsaved: session.NewUnsaved()},
		place: placement{leases: newNodeLeases(db, cfg.Node, cfg.LeaseTTL), self: cfg.Node, ttl: cfg.LeaseTTL,
			stopRenew: make(chan struct{})}}
	s.place.clock = s.clock
	s.replays.games = finished.New(db, data, cfg.Logger, s.clock)
	mem := lobby.NewMemory(s.clock) // the server's one clock: a daily's day (lobby.HiddenDaily)
	s.place.live = mem
	s.newMetrics(mem, db) // metrics.go
	s.policy.admins.Store(&keys.AdminSet{})
	if err := s.ReloadAdmins(); err != nil {
		return nil, err
	}
	s.policy.banned.Store(&keys.AdminSet{})
	if err := s.ReloadBans(); err != nil {
		return nil, err
	}
	s.front.guard = s.newGuard()
	nodes, err := newNodes(s, db)
	if err != nil {
		return nil, err
	}
	s.place.nodes = nodes
	hostKey, err := keys.LoadOrCreateHostKey(cfg.HostKeyPath())
	if err != nil {
		return nil, err
	}
	if s.front.srv, err = s.newSSH(hostKey); err != nil {
		return nil, err
	}
	if s.web.srv, err = s.newWeb(); err != nil {
		return nil, err
	}
	return s, nil
}

// newSSH builds the SSH server with hostKey: the handshake and idle
// timeouts of the limits, the connection guard before any middleware
// (server/guard admits connections and filters session requests),
// key and keyboard-interactive auth (auth.go) and the middleware chain
// (chain.go).
func (s *Server) newSSH(hostKey gossh.Signer) (*ssh.Server, error) {
	lim := s.cfg.Limits
	srv, err := wish.NewServer(
		wish.WithAddress(s.cfg.Listen),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = lim.HandshakeTimeout
			// Connections that never open a session (ssh -N) get no game
			// and no keepalive: close them when silent this long.
			if lim.IdleTimeout > 0 {
				srv.IdleTimeout = lim.IdleTimeout + time.Minute
			}
			return nil
		},
		s.front.guard.Install,
		func(srv *ssh.Server) error { srv.AddHostKey(hostKey); return nil },
		wish.WithPublicKeyAuth(s.publicKeyAuth),
		wish.WithKeyboardInteractiveAuth(s.keyboardAuth),
		s.middleware(),
	)
	if err != nil {
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	return srv, nil
}

// Listen binds the configured address, and the metrics address if one is
// set (Config.Metrics); Addr and MetricsAddr are valid after it.
func (s *Server) Listen() error {
	ln, err := s.bind(BindSSH, s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", s.cfg.Listen, err)
	}
	if err := s.listenMetrics(); err != nil {
		ln.Close()
		return err
	}
	s.front.ln = ln
	err = s.place.nodes.listen(s.bind, s.cfg.ClusterListen, s.cfg.ClusterAdvertise)
	if err == nil {
		if err = s.listenWeb(); err != nil && s.place.nodes.ln != nil {
			s.place.nodes.ln.Close()
		}
	}
	if err != nil {
		ln.Close()
		s.front.ln = nil
		if s.metrics.ln != nil {
			s.metrics.ln.Close()
		}
		return err
	}
	s.listenControl() // control.go
	return nil
}

// Addr returns the address the server listens on, once Listen has run.
func (s *Server) Addr() net.Addr { return s.front.ln.Addr() }

// Serve accepts connections until Shutdown; it then returns nil, at once
// when Shutdown came first.
func (s *Server) Serve() error {
	s.life.mu.Lock()
	if s.life.stopped {
		s.life.mu.Unlock()
		return nil
	}
	if s.front.ln == nil {
		if err := s.Listen(); err != nil {
			s.life.mu.Unlock()
			return err
		}
	}
	if IsPostgresURL(s.cfg.Store) {
		s.log.Info("grotto is listening", "addr", s.front.ln.Addr().String(), "store", "postgres", "data", s.cfg.DataDir,
			"admins", s.policy.admins.Load().Len(), "host_key", s.cfg.HostKeyPath(), "node", s.cfg.Node, "lease_ttl", s.cfg.LeaseTTL)
	} else {
		s.log.Info("grotto is listening", "addr", s.front.ln.Addr().String(), "store", "bbolt", "data", s.cfg.DataDir,
			"admins", s.policy.admins.Load().Len(), "host_key", s.cfg.HostKeyPath())
	}
	if s.front.guard.Proxied() {
		s.log.Info("PROXY protocol on: connections from these addresses must start with a PROXY header; a header from anywhere else is refused",
			"proxy_protocol_from", strings.Join(s.cfg.ProxyProtocolFrom, ","))
	}
	stop := make(chan struct{})
	defer close(stop)
	go s.serveControl(stop) // control.go: grotto backup
	go s.place.live.Sweep(s.cfg.Limits.KeepAlive, s.cfg.Limits.IdleTimeout, stop)
	go s.watchFile(stop)
	s.place.nodes.serve(stop)
	// One loop for every key playing on this node, until Shutdown has
	// seen every session save and release (games still save after Serve
	// returns).
	go s.place.leases.renewLoop(s.place.stopRenew, s.log)
	if s.web.srv != nil {
		go func() {
			if err := s.web.srv.Serve(s.web.ln); err != nil {
				s.log.Error("the web pages stopped", "err", err)
			}
		}()
	}
	go s.serveMetrics() // until Shutdown's stopMetrics
	s.life.served = true
	s.life.mu.Unlock()
	err := s.front.srv.Serve(s.front.ln)
	if errors.Is(err, ssh.ErrServerClosed) || s.isStopped() { // or its listener closed by Shutdown (shutdown.go)
		return nil
	}
	return err
}

// Shutdown first drains (health.go): /readyz says 503 while the server
// still serves for Config.Drain (or until CutDrain, or ctx ends). Then it
// stops accepting connections, tells every live session the server is
// shutting down, saves every game, and closes the store. Sessions that have
// not ended when ctx expires are cut off; their games are still saved as
// their handlers unwind. ctx bounds the whole, drain included. It returns
// the store's close error, if any.
func (s *Server) Shutdown(ctx context.Context) error {
	s.drain(ctx) // health.go: not ready, still serving, for Config.Drain
	s.log.Info("shutting down", "sessions", s.place.live.Len())
	s.stopServing()    // shutdown.go
	s.feed.hub.Close() // `events` followers and the front page's streams end (feed.go)
	// Followers say why their feed ended before connections close: each
	// takes at most sshcmd.CutGrace, all at once, and the wait is bounded
	// apart from ctx, which the games' saves below still need.
	bye, cancelBye := context.WithTimeout(ctx, sshcmd.CutGrace+time.Second)
	if err := s.feed.hub.Wait(bye); err != nil {
		s.log.Warn("events followers still open after their goodbye; closing them", "err", err)
	}
	cancelBye()
	if s.web.srv != nil { // watch pages first: they hold no game
		if err := s.web.srv.Shutdown(ctx); err != nil {
			s.log.Warn("web pages still open at the deadline; closing them", "err", err)
			s.web.srv.Close()
		}
	}
	s.replays.running.shutdown(ctx) // replays hold no game: they just end
	s.place.live.Shutdown()         // every session hears lobby.ShutDown, saves and leaves
	done := make(chan error, 1)
	go func() { done <- s.front.srv.Shutdown(ctx) }()
	if err := s.place.live.Wait(ctx); err != nil {
		s.log.Warn("sessions still open at the deadline; closing them", "sessions", s.place.live.Len())
	}
	s.front.srv.Close()
	<-done
	// Handlers of cut-off sessions save as they unwind; give them a moment.
	grace, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.place.live.Wait(grace)
	s.closeWebhook(ctx) // the sessions' last events posted (feed.go)
	s.place.stopRenewOnce.Do(func() { close(s.place.stopRenew) })
	s.place.nodes.close()
	s.stopMetrics(ctx) // the last scrape sees every save
	fileErr := s.store.CheckFile()
	if err := s.store.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	if fileErr != nil {
		s.log.Error("stopped; NO GAME WAS SAVED since the database file went away", "err", fileErr)
		return fileErr
	}
	if fps := s.ends.unsaved.Keys(); len(fps) > 0 {
		s.log.Error("stopped; some games could not be saved and their last turns are lost; each key's earlier log line says which", "unsaved", len(fps), "fps", strings.Join(fps, " "))
		return fmt.Errorf("games that could not be saved: %d (%s)", len(fps), strings.Join(fps, " "))
	}
	s.log.Info("stopped; every game saved")
	return nil
}

// Close releases a server that never served (its Listen failed, or Serve
// was not called): it closes the listener if any, the SSH server and the
// store, and logs nothing, since no game was played. A serving server
// stops with Shutdown.
func (s *Server) Close() error {
	if s.front.ln != nil {
		s.front.ln.Close()
	}
	s.closeControl()
	if s.place.nodes.ln != nil {
		s.place.nodes.ln.Close()
	}
	if s.web.ln != nil {
		s.web.ln.Close()
	}
	s.stopMetrics(context.Background())
	s.front.srv.Close()
	if s.feed.hook != nil {
		s.feed.hook.Close()
	}
	return s.store.Close()
}

// watchFile checks every FileCheckEvery until stop is closed that the
// database file is still there, and says so loudly when it is not: from then
// on no write can succeed and players are told on every turn.
func (s *Server) watchFile(stop <-chan struct{}) {
	t := time.NewTicker(FileCheckEvery)
	defer t.Stop()
	var gone bool
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		err := s.store.CheckFile()
		switch {
		case err != nil && !gone:
			s.log.Error("THE DATABASE FILE IS GONE: no game can be saved until it is restored; players are told on every turn", "err", err)
		case err == nil && gone:
			s.log.Warn("the database file is back", "file", filepath.Join(s.cfg.DataDir, DBFile))
		}
		gone = err != nil
	}
}

// ReloadAdmins re-reads the admin-keys file; rights are checked when used,
// so every session sees the change at once. On error (a missing or
// unreadable file, or a line that does not parse, naming it) it fails
// closed: nobody is an admin until a reload succeeds, so a host who removes
// a key and leaves a typo (or deletes the file) still revokes it. With no
// file configured there are no admins. A line with options (from=,
// restrict, command=, …), which grotto does not honour, is logged as a
// warning each time.
func (s *Server) ReloadAdmins() error {
	if s.cfg.AdminKeys == "" {
		return nil
	}
	admins, err := keys.LoadAuthorizedKeys(s.cfg.AdminKeys)
	if err != nil {
		s.policy.admins.Store(&keys.AdminSet{})
		return err
	}
	s.policy.admins.Store(&admins)
	for _, ig := range admins.IgnoredOptions() {
		s.log.Warn("admin key options are ignored: this key is an admin from anywhere, with every right",
			"file", s.cfg.AdminKeys, "line", ig.Line, "fp", ig.Fingerprint, "options", strings.Join(ig.Options, ","))
	}
	s.log.Info("admins loaded", "file", s.cfg.AdminKeys, "admins", admins.Len())
	return nil
}

// Store returns the server's store (tests read it).
func (s *Server) Store() store.Store { return s.store }

type ctxKey int

const (
	ctxIdentity ctxKey = iota
	ctxProgram
	ctxExplained
)

// inputOf is where a session's keys come from: the session itself for the
// emulated PTY that charm's ssh gives by default, else the PTY's slave side
// (as wish's bubbletea middleware reads it).
func inputOf(sess ssh.Session) io.Reader {
	if pty, _, ok := sess.Pty(); ok && !sess.EmulatedPty() && pty.Slave != nil {
		return pty.Slave
	}
	return sess
}

// programOf hands the bubbletea middleware the program sessionMiddleware made.
func programOf(sess ssh.Session) *tea.Program {
	p, _ := sess.Context().Value(ctxProgram).(*tea.Program)
	return p
}

// sessionMiddleware runs the player's session (play) on the SSH session.
func (s *Server) sessionMiddleware(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if gameID, ok := replayCommand(sess.Command()); ok { // `replay ID`: no game, no lease (replayplayer.go)
			s.replaySession(sess, next, gameID)
			return
		}
		s.play(sshSeat{sess: sess, next: next, s: s})
	}
}

// play owns one player's session, on an SSH session or in a browser (seat):
// it loads the profile, builds the model and program, claims the key's
// lease and lobby slot (one live game per key, across nodes), runs the
// program, and once it has ended for any reason saves the game and says
// goodbye.
func (s *Server) play(st seat) {
	id := st.who()
	logger := s.log.With("fp", id.fp, "ssh_user", id.name)
	if st.browser() {
		logger = s.log.With("fp", id.fp, "browser", true)
		defer s.web.browsers.enter(id.fp)()
	}
	name, isNew, ok := s.profileFor(st, id, logger)
	if !ok {
		return
	}
	lob := &sessionLobby{srv: s, fp: id.fp, log: logger}
	// The key's store lease (leases.go): claimed before the game is
	// read, released after its last write (finish), or here on the way
	// out of a session that never played.
	lob.lease = &sessionLease{nl: s.place.leases, st: s.store, fp: id.fp, n: lob}
	defer lob.lease.release()
	lob.setShownName(name, isNew)
	play := s.newPlay(id.fp, lob, logger)
	player := tui.Player{Name: name, Play: play, Board: scoreBoard{s.metrics.Timed(metrics.Roles{Scores: s.store}).Scores, &s.scoreChanges}, Data: s.data,
		Replays: titleReplays{s}, Daily: &dailyStarter{s: s, fp: id.fp, play: play, log: logger},
		IdleTimeout: s.cfg.Limits.IdleTimeout, Now: s.clock,
		Admin: func() bool { return s.policy.admins.Load().Contains(id.fp) },
		Lobby: lob, NeedName: isNew,
		Settings: s.settingsOf(id.fp), SaveSettings: s.saveSettings(id.fp, logger)}
	// The slot is listed under the stored profile's name only: a key
	// that has claimed none is unnamed (name is then just the name
	// screen's suggestion).
	listed := name
	if isNew {
		listed = ""
	}
	model, prog, keys, err := s.claim(st, lob, player, listed, logger)
	if !claimed(st, err, logger) {
		return
	}
	defer lob.release() // once the game is saved (finish), never before
	keys.Start(prog)    // the program that runs reads the keys
	st.run(prog)        // until the player leaves or the session ends
	model.Close()
	s.finish(st, id.fp, play, model, lob.lease, logger)
}

// loginStorageWait is how long a login waits for a database that does not
// answer before it is refused.
const loginStorageWait = 10 * time.Second

// profileFor reads (or makes) the profile of the seat's key, or tells the
// seat why it cannot play: a damaged record (the host must repair it) or a
// store that cannot be read. ok is false when it told.
func (s *Server) profileFor(st seat, id identity, logger *log.Logger) (name string, isNew, ok bool) {
	name, isNew, err := s.touchProfile(id, logger)
	// A database that does not answer for a moment (a restart, a table
	// locked past the store's lock wait) is waited for, trying again
	// every second, rather than refusing the login at once.
	if errors.Is(err, store.ErrUnavailable) {
		logger.Warn("the database does not answer; the login waits for it, trying again every second", "for", loginStorageWait, "err", err)
		ctx, _ := st.keys()
		deadline := time.NewTimer(loginStorageWait)
		defer deadline.Stop()
	wait:
		for errors.Is(err, store.ErrUnavailable) {
			select {
			case <-ctx.Done():
				return "", false, false // the client left
			case <-deadline.C:
				break wait
			case <-time.After(time.Second):
			}
			name, isNew, err = s.touchProfile(id, logger)
		}
	}
	if errors.Is(err, store.ErrCorrupt) {
		// Trying again will not help: the host must repair or remove
		// the record.
		logger.Error("this player's profile record is damaged; they cannot play until it is repaired or removed", "err", err)
		st.fail("Your player record on this server is damaged; the host has been told. Please contact them.")
		return "", false, false
	}
	if err != nil {
		logger.Error("profile", "err", err)
		st.fail("grotto cannot read its database right now; please try again later.")
		return "", false, false
	}
	return name, isNew, true
}

// claimed reports whether claim's err let the session play, else tells
// the seat why not: the key plays on a node that shares no store with this
// one, the server is closing, or the store cannot be read.
func claimed(st seat, err error, logger *log.Logger) bool {
	var held *store.LeaseHeldError
	switch {
	case errors.As(err, &held):
		logger.Info("key playing on another node: session refused (this node shares no store with it)",
			"node", held.Node, "until", held.Expires)
		st.fail(leaseHeldLine(held))
		return false
	case errors.Is(err, lobby.ErrClosing):
		st.fail(shutdownLine)
		return false
	case err != nil:
		logger.Error("could not claim the key's lease", "err", err)
		st.fail("grotto cannot read its database right now; please try again later.")
		return false
	}
	return true
}

// finish saves key fp's game once its program has ended, releases the
// key's lease after that last write, and ends the seat with what happened:
// the game taken over by another node (the lease was lost: nothing more
// was written here), a save that failed (and what of the game it cost), or
// the goodbye of how the player left.
func (s *Server) finish(st seat, fp string, play *session.Session, model *tui.Model, lease *sessionLease, logger *log.Logger) {
	hadGame := play.InProgress()
	err := play.Save()
	if lease.wasLost() {
		// Another node claimed the key: its writes here were refused
		// (fenced) and the game goes on there from its last write.
		lease.release()
		s.ends.unsaved.Clear(fp) // the game goes on there, from the store: nothing of it is left here to save
		logger.Warn("session ended: this node lost the key's lease to another node; nothing more was written here", "err", err)
		st.end("This game was taken over elsewhere: the server lost its claim on your game, which continues on the server that claimed it.", 1)
		return
	}
	lease.release() // after the game's last write
	if err == nil && hadGame {
		err = s.store.CheckFile() // a save into a deleted file is no save
	}
	if err == nil {
		logger.Info("session ended", "exit", model.Exit())
		st.end(s.goodbye(model.Exit(), hadGame), 0)
		return
	}
	s.ends.unsaved.Mark(fp)
	// err is the player's text (it promises retries, which end with the
	// session); the host needs the cause.
	if play.OnlyLastWaits() { // every turn the screen showed is in the store
		logger.Error("could not save game at end of session; the one turn the player was never shown is lost", "err", cause(err))
		st.end("Your game could not be saved ("+session.Why(err)+"). Every move your screen showed is saved; the last key you pressed was never shown and may be lost. The host has been told.", 1)
		return
	}
	logger.Error("could not save game at end of session; the turns since the last save are lost", "err", cause(err))
	st.end("Your game could not be saved ("+session.Why(err)+"); the turns since the last save may be lost. The host has been told.", 1)
}

// cause is what the host's log says of a session error: the cause behind a
// *session.Error (whose Error is the player's text), else err.
func cause(err error) error {
	var se *session.Error
	if errors.As(err, &se) && se.Err != nil {
		return se.Err
	}
	return err
}

// newPlay returns the session layer of key fp: its games, kept durable in
// the server's store, write trouble logged.
//
// Its game's writes, quarantine included, go through lease, fenced by the
// key's store lease.
//
// Its game's milestones are published as events under the name lob shows
// (feed.go).
func (s *Server) newPlay(fp string, lob *sessionLobby, logger *log.Logger) *session.Session {
	lease := lob.lease
	m := s.metrics.Metrics // every store call of the session timed by operation
	t := m.Timed(metrics.Roles{Saves: lease, Scores: lease, Profiles: s.store, Quarantine: loggedQuarantine{lease, logger}})
	scores := countedScores{t.Scores, &s.scoreChanges}
	return session.New(session.Config{Fingerprint: fp, Data: s.data, Saves: t.Saves, Scores: scores,
		Profiles: t.Profiles, Quarantine: t.Quarantine,
		NewSeed: s.cfg.NewSeed, NoJournal: s.cfg.NoJournal, Pending: s.ends.pending, Unsaved: s.ends.unsaved, Played: m.Played,
		Milestone: s.milestones(lob),
		Trouble: func(err error) {
			if errors.Is(err, session.ErrSnapshotLate) { // first, though it may wrap store.ErrUnavailable: no player waits
				logger.Warn("a snapshot of this player's game could not be written; every turn is still journaled, so the game is whole; the snapshot is tried again every few turns", "err", err)
			} else if errors.Is(err, store.ErrFenced) {
				m.FencedWrites.Inc()
				logger.Warn("a write of this player's game was refused (fenced): another node claimed the key; this session ends without writing again", "err", err)
			} else if errors.Is(err, store.ErrUnavailable) {
				m.StorageWaits.Inc()
				logger.Error("the database is out of reach (or a table held locked: see err); this player's last turn waits for it, retried every second, and the player is told", "err", err)
			} else if err != nil {
				logger.Error("a write of this player's game failed; it is retried every turn and the player is told", "err", err)
			} else {
				logger.Info("this player's game is saved again")
			}
		}})
}

// loggedQuarantine is the store's quarantine as a session uses it, telling
// the host's log of every save set aside: the player reads about it on
// screen, the host would otherwise learn of it only from `quarantine`.
type loggedQuarantine struct {
	st  store.Quarantine
	log *log.Logger // the session's logger, which names the fingerprint
}

// Quarantine implements store.Quarantine, logging a warning with the reason
// and the record's key once the save is set aside (an error if it is not).
func (q loggedQuarantine) Quarantine(fp, reason string, now time.Time) (string, error) {
	key, err := q.st.Quarantine(fp, reason, now)
	if err != nil {
		q.log.Error("a damaged save could not be set aside; it stays in place", "reason", reason, "err", err)
		return key, err
	}
	q.log.Warn("a damaged save was set aside (quarantined); the player starts anew; list it with `ssh host quarantine` as an admin",
		"reason", reason, "key", key)
	return key, nil
}

// Quarantined implements store.Quarantine.
func (q loggedQuarantine) Quarantined(fp string) ([]store.Quarantined, error) {
	return q.st.Quarantined(fp)
}

// claim builds the session's model and program and claims its place
// (placement.claim: the key's lease, then its lobby slot), listed under
// listed: the key's player slot, or, when the key already plays
// elsewhere, a spectator slot with the model on the choice screen (take
// over or watch), with the keyboard to Start the program with just before
// it runs. It returns the lobby's error (lobby.ErrClosing) when no slot
// can be had, and the store's when the key's lease cannot be claimed.
func (s *Server) claim(st seat, lob *sessionLobby, player tui.Player, listed string, logger *log.Logger) (*tui.Model, *tea.Program, *input.Keyboard, error) {
	opts, keys := s.programOptions(st, logger)
	var model *tui.Model
	var prog *tea.Program
	h := lobby.Holder{Key: lob.fp, Name: listed, Notifier: lob, Conn: st.conn()} // Conn: for keepalives
	slot, err := s.place.claim(h, lob.lease, logger, func(seat seating) {
		if seat.node != "" {
			lob.setElsewhere(seat.node)
			player.ConflictNode, player.Stranded = seat.node, seat.stranded
		}
		player.Conflict = seat.conflict
		model = tui.New(player)
		prog = tea.NewProgram(model, opts...)
		lob.setProgram(prog) // before the slot: it hears from the start
	})
	if err != nil {
		return nil, nil, nil, err
	}
	lob.setSlot(slot)
	return model, prog, keys, nil
}

// programOptions are the options of a seat's program: its keys through
// the one sanitizer and rate of every seat (server/input), the frame rate, and
// its output, whose frames stop its key's clock (key→frame latency,
// metrics.go), which also hears of each frame drawn (a key that drew
// nothing is not timed). The keyboard's Start must be called with the program made
// with them.
func (s *Server) programOptions(st seat, logger *log.Logger) ([]tea.ProgramOption, *input.Keyboard) {
	ctx, keys := st.keys()
	clock := s.metrics.NewKeyClock()
	in := input.New(ctx, keys, s.cfg.Limits.InputBytesPerSec, logger, clock)
	opts := append(st.programOptions(), tea.WithoutSignalHandler(), tea.WithFPS(s.cfg.FPS), in.Option(), tea.WithFrameObserver(clock))
	switch t := st.(type) {
	case sshSeat:
		opts = append(opts, tea.WithOutput(in.Terminal(sessionOutput(t.sess, clock, logger))))
		// A client that closes its input can type no more: the game is
		// saved and the session ends, instead of holding its seat until
		// the idle timeout. A page's input ends only with its WebSocket.
		in.EndWith(tui.InputEndedMsg{})
	case webSeat:
		opts = append(opts, tea.WithOutput(in.Terminal(&frameWriter{w: t.t.Output(), clock: clock})))
	}
	return opts, in
}

// What a session reads when the server shuts down. SIGTERM is the same
// whether the host stops grotto for good or restarts it (systemd's stop and
// restart look alike from inside), so these promise no return, only what
// is true either way; a host who restarts says so first with `broadcast`.
const (
	// shutdownSavedLine: the session had a game, and it is saved.
	shutdownSavedLine = "The server is shutting down. Your game is saved; come back with the same key to carry on."
	// shutdownLine: the session had no game (the title, a name screen, a
	// login refused because the server is closing).
	shutdownLine = "The server is shutting down; please try again later."
)

// goodbye is the line a player reads once their session has ended and the
// game (if any) is saved; "" when the client went away.
func (s *Server) goodbye(exit tui.Exit, hadGame bool) string {
	switch exit {
	case tui.ExitSaved:
		return "Your game is saved. Come back with the same key to carry on."
	case tui.ExitShutdown:
		if hadGame {
			return shutdownSavedLine
		}
		return shutdownLine
	case tui.ExitTakenOver:
		if !hadGame { // on the title or watching someone: nothing to carry on
			return "Your key connected from another session, which carries on there; you had no game open, so nothing is lost."
		}
		return "Your key connected from another session and took over; anything you were playing is saved and continues there."
	case tui.ExitQuit:
		return "Farewell."
	case tui.ExitKicked:
		if hadGame {
			return "An admin ended your session; your game is saved."
		}
		return "An admin ended your session."
	case tui.ExitBanned:
		if hadGame {
			return "This key is banned from this server; your game is saved."
		}
		return bannedLine
	case tui.ExitIdle:
		if hadGame {
			return fmt.Sprintf("You were idle for %s; your game is saved. Goodbye.", tui.Duration(s.cfg.Limits.IdleTimeout))
		}
		return fmt.Sprintf("You were idle for %s. Goodbye.", tui.Duration(s.cfg.Limits.IdleTimeout))
	case tui.ExitInputEnded:
		if hadGame {
			return "Your terminal stopped sending keys; your game is saved. Come back with the same key to carry on."
		}
		return "Your terminal stopped sending keys. Goodbye."
	}
	return ""
}

// touchProfile records the visit of a returning player and returns their
// name. A first-time player gets no profile yet: isNew is true and name is a
// suggestion (the SSH user name when it is valid and free) for the name
// screen, which claims the name and creates the profile. Recording the
// visit (LastSeen) is not essential: when that write fails (a full disk)
// it is logged as a warning and the player still plays. err is the
// profile's read error: one wrapping store.ErrCorrupt for a damaged record.
func (s *Server) touchProfile(id identity, logger *log.Logger) (name string, isNew bool, err error) {
	p, err := s.store.Profile(id.fp)
	switch {
	case errors.Is(err, store.ErrNotFound):
		suggest := id.name
		if holder, err := s.store.NameHolder(suggest); err != nil || (holder != "" && holder != id.fp) {
			suggest = ""
		}
		return suggest, true, nil
	case err != nil:
		return "", false, err
	}
	p.Fingerprint = id.fp // the key's, never the record's text, which may be damaged
	p.LastSeen = time.Now()
	if err := s.store.PutProfile(p); err != nil {
		logger.Warn("could not record the player's visit (last seen); letting them in", "err", err)
	}
	return p.Name, false, nil
}

// scoreBoard is the high-score table as the title shows it (tui.Board).
type scoreBoard struct {
	st      store.Scores
	changes *atomic.Uint64 // Server.scoreChanges
}

// Changes implements tui.Board.
func (b scoreBoard) Changes() uint64 { return b.changes.Load() }

// countedScores is a session's store.Scores that moves Server.scoreChanges
// with every game it records, so the titles shown read the table again.
type countedScores struct {
	store.Scores
	changes *atomic.Uint64
}

// FinishGame implements store.Scores. A failed write moves the count too:
// it may have been committed all the same.
func (c countedScores) FinishGame(fp string, s store.Score) (int, error) {
	defer c.changes.Add(1)
	return c.Scores.FinishGame(fp, s)
}

// TopScores implements tui.Board.
func (b scoreBoard) TopScores(n int) ([]tui.ScoreRow, error) {
	scores, err := b.st.TopScores(n)
	return scoreRows(scores), err
}
