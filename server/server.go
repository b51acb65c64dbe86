// Package server is grotto's SSH front door: the wish server and its
// middleware chain, public-key identity, the registry of live sessions, and
// graceful shutdown. It knows nothing of the game's rules: each session gets a
// tui.Model and the server only saves it when the session ends.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/logging"
	"charm.land/wish/v2/ratelimiter"
	rm "charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/store"
)

// Config is what a host sets. Zero values are not defaults: cmd/grotto fills
// them in.
type Config struct {
	Listen    string // TCP address, e.g. ":23234"
	DataDir   string // holds the database (grotto.db) and the host key (host_ed25519)
	AdminKeys string // authorized_keys file naming admins; "" for none
	Logger    *log.Logger
	// LockTimeout is how long to wait for the database file's lock before
	// giving up (another grotto on the same data dir). 0 means 2 s.
	LockTimeout time.Duration
	// NewSeed, if set, seeds every new game (tests use it); nil means random.
	NewSeed func() uint64
	// Limits are the abuse limits; the zero value means DefaultLimits.
	Limits Limits
	// FPS is the most frames a session draws per second (Bubble Tea's
	// renderer ticks at this rate even when idle); 0 means DefaultFPS.
	FPS int
	// NoJournal saves games only on level changes, on leaving and every
	// 100 turns instead of making every turn durable (see tui.Player).
	NoJournal bool
}

// DefaultFPS is the frame rate of a session: a key is answered within one
// frame (33 ms), and 2,000 idle sessions tick half as often as at Bubble
// Tea's default 60.
const DefaultFPS = 30

// Files inside the data dir.
const (
	DBFile      = "grotto.db"
	HostKeyFile = "host_ed25519"
)

// Server is a running grotto: the SSH server, the store, the live sessions.
type Server struct {
	cfg    Config
	log    *log.Logger
	ssh    *ssh.Server
	store  *store.Bolt
	admins atomic.Pointer[keys.AdminSet]
	live   *registry
	ln     net.Listener
	conns  *addrConns // open connections per address (conns.go)
	// unsaved counts the sessions that ended with a game that could not be
	// saved; Shutdown reports them so the process exits non-zero.
	unsaved atomic.Int64
}

// FileCheckEvery is how often a running server checks that its database
// file is still the one it opened (see store.ErrFileGone).
const FileCheckEvery = 2 * time.Second

// New opens the store, loads or creates the host key, and builds the SSH
// server; it does not listen yet. Errors name the file at fault: a database
// locked by another process (store.ErrLocked), a file that is not a grotto
// database (store.ErrNotDatabase), an unreadable admin-keys file.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = log.New(os.Stderr)
	}
	if cfg.LockTimeout == 0 {
		cfg.LockTimeout = 2 * time.Second
	}
	if cfg.FPS <= 0 {
		cfg.FPS = DefaultFPS
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits()
	}
	if _, err := game.LoadData(); err != nil {
		return nil, fmt.Errorf("game data: %w", err)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Logger, live: newRegistry(), conns: newAddrConns()}
	s.admins.Store(&keys.AdminSet{})
	if err := s.ReloadAdmins(); err != nil {
		return nil, err
	}
	st, err := store.Open(filepath.Join(cfg.DataDir, DBFile), cfg.LockTimeout)
	if err != nil {
		return nil, err
	}
	s.store = st
	stdlog := cfg.Logger.StandardLog(log.StandardLogOptions{ForceLevel: log.ErrorLevel})
	// Middleware runs outermost first: recover, logging, the per-IP rate
	// limit, the session cap, identity, commands (scores, who), the PTY
	// check, the session (registry, save on exit), window sizes (clamped and
	// coalesced, requests.go), then Bubble Tea. wish and
	// recover apply the last listed first, hence the reversed list.
	lim := cfg.Limits
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Listen),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = lim.HandshakeTimeout
			// Connections that never open a session (ssh -N) get no game
			// and no keepalive: close them when silent this long.
			if lim.IdleTimeout > 0 {
				srv.IdleTimeout = lim.IdleTimeout + time.Minute
			}
			// Connections and session requests are checked before any
			// middleware: conns.go, requests.go.
			srv.ConnCallback = s.admit
			if srv.ChannelHandlers == nil {
				srv.ChannelHandlers = map[string]ssh.ChannelHandler{}
			}
			srv.ChannelHandlers["session"] = s.sessionChannel
			return nil
		},
		wish.WithHostKeyPath(filepath.Join(cfg.DataDir, HostKeyFile)),
		wish.WithPublicKeyAuth(acceptKey),
		wish.WithKeyboardInteractiveAuth(explainKeys),
		wish.WithMiddleware(rm.MiddlewareWithLogger(stdlog,
			bubbletea.MiddlewareWithProgramHandler(programOf),
			windowSizes,
			s.sessionMiddleware,
			requirePTY(portOf(cfg.Listen)),
			s.commands,
			identify,
			s.capSessions,
			ratelimiter.Middleware(ratelimiter.NewRateLimiter(rate.Limit(float64(max(1, lim.ConnPer10s))/10), max(1, lim.ConnPer10s), 10000)),
			logging.StructuredMiddlewareWithLogger(cfg.Logger, log.InfoLevel),
		)),
	)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	s.ssh = srv
	return s, nil
}

// Listen binds the configured address; Addr is valid after it.
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", s.cfg.Listen, err)
	}
	s.ln = ln
	return nil
}

// Addr returns the address the server listens on, once Listen has run.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve accepts connections until Shutdown; it then returns nil.
func (s *Server) Serve() error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	s.log.Info("grotto is listening", "addr", s.ln.Addr().String(), "data", s.cfg.DataDir, "admins", s.admins.Load().Len())
	stop := make(chan struct{})
	defer close(stop)
	go s.live.sweep(s.cfg.Limits.KeepAlive, s.cfg.Limits.IdleTimeout, stop)
	go s.watchFile(stop)
	err := s.ssh.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, tells every live session the server
// is restarting, saves every game, and closes the store. Sessions that have
// not ended when ctx expires are cut off; their games are still saved as
// their handlers unwind. It returns the store's close error, if any.
func (s *Server) Shutdown(ctx context.Context) error {
	s.log.Info("shutting down", "sessions", s.live.len())
	s.live.closeAll(tui.ShutdownMsg{})
	done := make(chan error, 1)
	go func() { done <- s.ssh.Shutdown(ctx) }()
	if err := s.live.wait(ctx); err != nil {
		s.log.Warn("sessions still open at the deadline; closing them", "sessions", s.live.len())
	}
	s.ssh.Close()
	<-done
	// Handlers of cut-off sessions save as they unwind; give them a moment.
	grace, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.live.wait(grace)
	fileErr := s.store.CheckFile()
	if err := s.store.Close(); err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	if fileErr != nil {
		s.log.Error("stopped; NO GAME WAS SAVED since the database file went away", "err", fileErr)
		return fileErr
	}
	if n := s.unsaved.Load(); n > 0 {
		s.log.Error("stopped; some games could not be saved", "unsaved", n)
		return fmt.Errorf("games that could not be saved: %d", n)
	}
	s.log.Info("stopped; every game saved")
	return nil
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
// file configured there are no admins.
func (s *Server) ReloadAdmins() error {
	if s.cfg.AdminKeys == "" {
		return nil
	}
	admins, err := keys.LoadAuthorizedKeys(s.cfg.AdminKeys)
	if err != nil {
		s.admins.Store(&keys.AdminSet{})
		return err
	}
	s.admins.Store(&admins)
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
	ctxWindows // the *windows of the connection's running session (requests.go)
	ctxConn    // the *connState of a connection (conns.go)
)

// identity is who a session is: read from the key it authenticated with.
type identity struct {
	fp   string
	name string
}

// explainKeys refuses keyboard-interactive login, which clients try when they
// have no key, and tells the person how to make one: OpenSSH prints the
// instruction before "Permission denied".
func explainKeys(ctx ssh.Context, challenge gossh.KeyboardInteractiveChallenge) bool {
	if ctx.Value(ctxExplained) != nil {
		return false // clients retry; say it once per connection
	}
	ctx.SetValue(ctxExplained, true)
	challenge("", "grotto knows players by their SSH key, and your client offered none.\n"+
		"Make one with: ssh-keygen -t ed25519   then connect again.\n", nil, nil)
	return false
}

// identify takes the player's identity from the public key the session
// authenticated with (never from a key merely offered in the handshake).
func identify(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		k := sess.PublicKey()
		if k == nil {
			wish.Fatalln(sess, "grotto needs an SSH key. Make one with: ssh-keygen -t ed25519")
			return
		}
		name := sess.User()
		if !tui.ValidName(name) {
			name = "" // suggested nothing: the player types a name
		}
		sess.Context().SetValue(ctxIdentity, identity{fp: keys.Fingerprint(k), name: name})
		next(sess)
	}
}

// requirePTY turns away clients without a terminal with a message, not a
// hang; port is the one players connect to, for the suggested command.
func requirePTY(port string) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			if _, _, ok := sess.Pty(); ok {
				next(sess)
				return
			}
			wish.Fatalln(sess, "grotto is a full-screen game and needs a terminal.\r\n"+
				"Connect with a terminal, forcing one if your client did not ask: ssh -t -p "+port+" <host>\r")
		}
	}
}

// portOf returns the port of a listen address, or "23234".
func portOf(addr string) string {
	if _, port, err := net.SplitHostPort(addr); err == nil && port != "" && port != "0" {
		return port
	}
	return "23234"
}

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

// sessionMiddleware owns one player's session: it loads the profile, builds
// the model and program, registers it as live, and once the program has
// ended for any reason saves the game and says goodbye.
func (s *Server) sessionMiddleware(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id := sess.Context().Value(ctxIdentity).(identity)
		logger := s.log.With("fp", id.fp, "ssh_user", id.name)
		name, isNew, err := s.touchProfile(id)
		if err != nil {
			logger.Error("profile", "err", err)
			wish.Fatalln(sess, "grotto cannot read its database right now; please try again later.\r")
			return
		}
		lobby := &lobby{srv: s, fp: id.fp, name: name, log: logger}
		player := tui.Player{Fingerprint: id.fp, Name: name, Store: s.store, NewSeed: s.cfg.NewSeed,
			IdleTimeout: s.cfg.Limits.IdleTimeout, NoJournal: s.cfg.NoJournal,
			Admin: func() bool { return s.admins.Load().Contains(id.fp) }, SaveTrouble: func(err error) {
				if err != nil {
					logger.Error("a write of this player's game failed; it is retried every turn and the player is told", "err", err)
				} else {
					logger.Info("this player's game is saved again")
				}
			}, Lobby: lobby, NeedName: isNew}
		opts := append(bubbletea.MakeOptions(sess), tea.WithoutSignalHandler(), tea.WithFPS(s.cfg.FPS),
			sessionInput(sess, s.cfg.Limits.InputBytesPerSec, logger))
		if pty, _, ok := sess.Pty(); ok {
			// A client may claim any size; Bubble Tea allocates a screen of
			// it. The request filter (requests.go) already clamped the
			// pty-req and clamps every window-change; this keeps the first
			// size safe on its own too.
			opts = append(opts, tea.WithWindowSize(min(max(pty.Window.Width, 0), tui.MaxWidth), min(max(pty.Window.Height, 0), tui.MaxHeight)))
		}

		var model *tui.Model
		var prog *tea.Program
		for {
			model = tui.New(player)
			prog = tea.NewProgram(model, opts...)
			lobby.prog = prog
			listed := name
			if isNew {
				listed = "" // not a name until the player claims it
			}
			var liveID uint64
			var err error
			if player.Conflict {
				liveID, err = s.live.addSpectator(id.fp, prog, time.Now())
			} else {
				liveID, err = s.live.add(id.fp, listed, prog, time.Now())
			}
			if errors.Is(err, errAlreadyPlaying) {
				logger.Info("key already playing: offering take over or watch")
				player.Conflict = true
				continue // rebuild the model on the choice screen
			}
			if err != nil {
				wish.Fatalln(sess, "The server is restarting. Please reconnect in a moment.\r")
				return
			}
			lobby.setID(liveID)
			break
		}
		defer func() { s.live.remove(lobby.id()) }()
		if conn, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
			s.live.setConn(lobby.id(), conn)
		}
		sess.Context().SetValue(ctxProgram, prog)
		next(sess) // runs the program until the player leaves or the session ends
		model.Close()
		hadGame := model.InProgress()
		err = model.Persist()
		if err == nil && hadGame {
			err = s.store.CheckFile() // a save into a deleted file is no save
		}
		if err != nil {
			s.unsaved.Add(1)
			logger.Error("could not save game at end of session", "err", err)
			wish.Println(sess, "Your game could not be saved: "+err.Error()+"\r")
			sess.Exit(1)
			return
		}
		switch model.Exit() {
		case tui.ExitSaved:
			wish.Println(sess, "Your game is saved. Come back with the same key to carry on.\r")
		case tui.ExitShutdown:
			if hadGame {
				wish.Println(sess, "The server is restarting. Your game is saved; reconnect in a moment.\r")
			} else {
				wish.Println(sess, "The server is restarting. Please reconnect in a moment.\r")
			}
		case tui.ExitTakenOver:
			wish.Println(sess, "Your key connected from another session and took over; anything you were playing is saved and continues there.\r")
		case tui.ExitQuit:
			wish.Println(sess, "Farewell.\r")
		case tui.ExitIdle:
			wish.Println(sess, fmt.Sprintf("You were idle for %v; your game is saved. Goodbye.\r", s.cfg.Limits.IdleTimeout))
		}
		logger.Info("session ended", "exit", model.Exit())
		sess.Exit(0)
	}
}

// touchProfile records the visit of a returning player and returns their
// name. A first-time player gets no profile yet: isNew is true and name is a
// suggestion (the SSH user name when it is valid and free) for the name
// screen, which claims the name and creates the profile.
func (s *Server) touchProfile(id identity) (name string, isNew bool, err error) {
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
	p.LastSeen = time.Now()
	return p.Name, false, s.store.PutProfile(p)
}

// lobby is one session's window on the server (tui.Lobby).
type lobby struct {
	srv   *Server
	fp    string
	name  string
	log   *log.Logger
	prog  *tea.Program
	liveM sync.Mutex
	live  uint64 // the session's registry id; 0 while another session of the key plays
}

func (l *lobby) id() uint64 {
	l.liveM.Lock()
	defer l.liveM.Unlock()
	return l.live
}

func (l *lobby) setID(id uint64) {
	l.liveM.Lock()
	defer l.liveM.Unlock()
	l.live = id
}

// Games implements tui.Lobby.
func (l *lobby) Games() []tui.LiveGame {
	self := l.id()
	var out []tui.LiveGame
	for _, g := range l.srv.live.list() {
		if g.ID != self {
			out = append(out, g)
		}
	}
	return out
}

// Mine implements tui.Lobby.
func (l *lobby) Mine() (tui.LiveGame, bool) { return l.srv.live.ofKey(l.fp) }

// Watchers implements tui.Lobby.
func (l *lobby) Watchers() int { return l.srv.live.watchers(l.id()) }

// Watch implements tui.Lobby.
func (l *lobby) Watch(id uint64) (<-chan []byte, func(), bool) { return l.srv.live.watch(id) }

// Publish implements tui.Lobby.
func (l *lobby) Publish(depth, turn int, frame []byte) {
	if id := l.id(); id != 0 {
		l.srv.live.publish(id, depth, turn, frame, time.Now())
	}
}

// TakeOver implements tui.Lobby: the key's other session saves and leaves,
// then this one becomes the key's live session.
func (l *lobby) TakeOver() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := l.srv.live.takeOver(ctx, l.fp, tui.TakenOverMsg{}); err != nil {
		return err
	}
	// Listed under the stored profile's name, the one place a name comes
	// from: a key that has claimed none is listed unnamed, never under its
	// SSH user name (a suggestion only).
	listed := ""
	if p, err := l.srv.store.Profile(l.fp); err == nil {
		listed = p.Name
	}
	if err := l.srv.live.promote(l.id(), listed); err != nil {
		return err
	}
	l.log.Info("took over the key's other session")
	return nil
}

// ClaimName implements tui.Lobby.
func (l *lobby) ClaimName(name string) error {
	if !tui.ValidName(name) {
		return errors.New("a name is 1 to 16 letters, digits, - or _")
	}
	err := l.srv.store.ClaimName(l.fp, name, time.Now())
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return fmt.Errorf("%s is taken; choose another name", name)
	case err != nil:
		l.log.Error("claim name", "err", err)
		return errors.New("the name could not be saved; try again")
	}
	l.name = name
	if id := l.id(); id != 0 {
		l.srv.live.rename(id, name)
	}
	return nil
}

// Cheat implements tui.Lobby: every cheat is logged with the fingerprint.
func (l *lobby) Cheat(what string) { l.log.Warn("cheat used", "cheat", what, "name", l.name) }
