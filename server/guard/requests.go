// Session requests, filtered before the SSH library acts on them.
//
// charm.land/ssh v0.4.3 answers every request on a session channel in one
// loop, (*session).handleRequests in session.go, before any of grotto's
// middleware runs, and three of its habits hurt a server:
//
//   - "window-change" is handed on with a blocking send into a channel of one
//     (session.go:413, `sess.winch <- win`) that only Bubble Tea's resize
//     goroutine reads, and only while the program runs. A window-change
//     before "shell" (the pty-req's size still fills the channel) blocks the
//     loop, so "shell" is never answered; after the program ends, two more
//     block it forever, holding the goroutine and the session. (The same
//     code in gliderlabs/ssh; shellhub-io/shellhub#6837 describes the hang.)
//   - "env" appends every variable, of any size and number, to the session
//     (session.go:341) until the shell starts.
//   - Sizes go on as sent; grotto clamped only the first one.
//
// SessionChannel stands in for ssh.DefaultSessionHandler and hands it the
// requests through filter, which caps environment variables, clamps the
// size in "pty-req", keeps window-changes from the library's loop, and
// reads a flood no faster than RequestsPerSec. WindowSizes then gives Bubble
// Tea the newest clamped size, at most one per ResizeInterval, through a
// channel of its own that nothing blocks on.

package guard

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/winsize"
)

// MaxEnvVars is how many environment variables ("env" requests) one session
// may set; later ones are refused. Bubble Tea reads TERM, COLORTERM,
// TERM_PROGRAM, SSH_TTY and WT_SESSION (bubbletea tea.go, colorprofile
// env.go); OpenSSH's default SendEnv adds LANG and the LC_* family.
const MaxEnvVars = 32

// MaxEnvBytes is the most bytes one environment variable's name and value
// may take together; a longer one is refused.
const MaxEnvBytes = 1024

// ResizeInterval is the shortest time between two window sizes handed to a
// session's program: winsize.Interval, the rule of every way a size
// arrives (the web pages' too). A flood of window-changes is coalesced: the
// newest size waiting is delivered, the ones it replaced never are; the
// first size after a quiet spell goes at once.
const ResizeInterval = winsize.Interval

// RequestsPerSec is how many requests one session channel may send per
// second, after a burst of RequestBurst. A flood is read no faster: the
// library's buffer of requests fills and the client's connection waits, as
// for typed input (server.Limits.InputBytesPerSec), instead of costing CPU.
const (
	RequestsPerSec = 20
	RequestBurst   = 64
)

// ResizesPerSec is how many window-changes one session channel may send per
// second, after a burst of ResizeBurst: a bucket apart from RequestsPerSec,
// so that a window being dragged (hundreds of sizes) never holds up the
// keys, while a flood is still read no faster.
const (
	ResizesPerSec = winsize.ReportsPerSec
	ResizeBurst   = winsize.ReportBurst
)

// filteredChannel is a NewChannel whose requests pass through filter.
type filteredChannel struct {
	gossh.NewChannel
	ctx  ssh.Context
	win  *windows
	conn *connState // nil when the server was built without Admit
	log  *log.Logger
	ch   gossh.Channel

	mu      sync.Mutex
	running bool // this channel's session is the connection's running one
}

// Accept accepts the channel and returns it with the filtered requests.
func (f *filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	f.ch = ch
	out := make(chan *gossh.Request)
	go f.filter(reqs, out)
	return &closingChannel{Channel: ch, closed: f.finish}, out, nil
}

// start makes this channel's session the connection's running one, if
// none is, and hands its window sizes to WindowSizes (ctxWindows).
func (f *filteredChannel) start() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn != nil && !f.conn.start() {
		return false
	}
	f.running = true
	f.ctx.SetValue(ctxWindows, f.win)
	return true
}

// finish ends this channel's running session, if it has one: the server
// closed the channel (ssh.Session.Exit) or the channel is gone.
func (f *filteredChannel) finish() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running && f.conn != nil {
		f.conn.finish()
	}
	f.running = false
}

// refuseBusy answers a shell, exec or subsystem request while another
// session of the connection runs: a one-line reason, exit status 1.
func (f *filteredChannel) refuseBusy(req *gossh.Request) {
	req.Reply(true, nil)
	fmt.Fprint(f.ch.Stderr(), "grotto: this connection already has a session running; connect again without sharing it (ssh -o ControlPath=none).\r\n")
	f.ch.SendRequest("exit-status", false, gossh.Marshal(struct{ Status uint32 }{1}))
	f.ch.Close()
}

// filter reads every request of the channel and hands on those the library
// should see. It reads until the channel closes, whatever happens: the SSH
// package's connection loop waits on every request being read
// (golang.org/x/crypto/ssh: "the Request channel must be serviced, or the
// connection will hang"). Once the connection is closing it answers no to
// the rest and hands on nothing.
func (f *filteredChannel) filter(in <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer func() {
		for req := range in {
			req.Reply(false, nil)
		}
	}()
	defer close(out)
	defer f.finish()
	defer func() {
		if r := recover(); r != nil {
			f.log.Error("panic filtering session requests", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	var st requestState
	lim := rate.NewLimiter(RequestsPerSec, RequestBurst)
	resizes := rate.NewLimiter(ResizesPerSec, ResizeBurst)
	for req := range in {
		if req.Type == "window-change" {
			// A bucket of their own, far above what a terminal dragged to
			// a new size sends: parsing one costs little and windowSizes
			// coalesces them, but behind the general rate they stalled the
			// whole connection (keys too) in the library's small queue.
			if err := resizes.Wait(f.ctx); err != nil {
				req.Reply(false, nil)
				return
			}
			win, ok := parseWindowChange(req.Payload, windowSize(f.win))
			req.Reply(ok && st.pty, nil)
			if ok && st.pty {
				f.win.Set(win)
			}
			continue // never to the library: see the file comment
		}
		if err := lim.Wait(f.ctx); err != nil { // the connection is closing
			req.Reply(false, nil)
			return
		}
		if !f.admit(req, &st) {
			continue
		}
		select {
		case out <- req:
		case <-f.ctx.Done(): // the connection is closing
			req.Reply(false, nil)
			return
		}
	}
}

// requestState is what filter has seen of a channel's requests.
type requestState struct {
	envs         int  // env requests handed on, at most MaxEnvVars
	pty, started bool // a pty-req was handed on; a shell or exec started
}

// admit decides one request other than a window-change: it reports
// whether to hand it on to the library, having answered and dropped it
// otherwise (an env beyond MaxEnvVars or MaxEnvBytes, any subsystem, a
// shell or exec while another session of the connection runs). A pty-req
// is handed on clamped (clampPtyReq).
func (f *filteredChannel) admit(req *gossh.Request, st *requestState) bool {
	switch req.Type {
	case "env":
		// name and value, each after a 4-byte length
		if st.envs >= MaxEnvVars || len(req.Payload) > MaxEnvBytes+8 {
			req.Reply(false, nil)
			return false
		}
		st.envs++
	case "pty-req":
		if p, win, ok := clampPtyReq(req.Payload); ok {
			req.Payload = p
			if !st.pty {
				f.win.Set(win)
			}
			st.pty = true
		}
	case "subsystem":
		// grotto serves no subsystem (no SFTP): refused here, so that a
		// refused request never counts as a running session and the
		// connection's session-open deadline still applies.
		req.Reply(false, nil)
		return false
	case "shell", "exec":
		if !st.started { // the library refuses a second one itself
			if !f.start() {
				f.refuseBusy(req)
				return false
			}
			st.started = true
		}
	}
	return true
}

// closingChannel tells its session's connection when the server closes the
// channel (the session's handler has ended, ssh.Session.Exit).
type closingChannel struct {
	gossh.Channel
	closed func()
}

// Close closes the channel and reports the session over.
func (c *closingChannel) Close() error {
	c.closed()
	return c.Channel.Close()
}

// DefaultColumns and DefaultRows are the terminal size (cells) a session
// plays at in a dimension its client does not give (0 columns or 0 rows
// in the pty-req, as `ssh -tt host </dev/null` sends): 80x24, the size
// OpenSSH and terminfo assume. RFC 4254 section 6.2: "Zero dimension
// parameters MUST be ignored." Without them, Bubble Tea draws into a 0x0
// screen and the player sees nothing until the idle timeout.
const (
	DefaultColumns = 80
	DefaultRows    = 24
)

// defaultWindow is DefaultColumns x DefaultRows.
func defaultWindow() ssh.Window { return ssh.Window{Width: DefaultColumns, Height: DefaultRows} }

// clampPtyReq returns a copy of a pty-req payload with its size clamped to
// tui.MaxWidth x tui.MaxHeight, a dimension of 0 made DefaultColumns or DefaultRows, and
// the size as made. The layout (RFC 4254
// section 6.2, as session.go's parsePtyRequest reads it): TERM as a string,
// then columns, rows, width and height in pixels as uint32s, then the modes.
func clampPtyReq(payload []byte) ([]byte, ssh.Window, bool) {
	if len(payload) < 4 {
		return nil, ssh.Window{}, false
	}
	n := binary.BigEndian.Uint32(payload)
	if uint64(n)+4+16 > uint64(len(payload)) {
		return nil, ssh.Window{}, false
	}
	p := append([]byte(nil), payload...)
	win := clampWindow(p[4+n:], defaultWindow())
	return p, win, true
}

// parseWindowChange reads a window-change payload (RFC 4254 section 6.7:
// columns, rows, width and height in pixels, as uint32s) clamped to
// tui.MaxWidth x tui.MaxHeight; a dimension of 0 is ignored: it stays
// was's (the session's size until now).
func parseWindowChange(payload []byte, was ssh.Window) (ssh.Window, bool) {
	if len(payload) < 16 {
		return ssh.Window{}, false
	}
	return clampWindow(append([]byte(nil), payload[:16]...), was), true
}

// clampWindow clamps the columns and rows at the start of b (uint32s, in
// place), a 0 made unset's (itself at least 1x1), and returns the window
// they describe.
func clampWindow(b []byte, unset ssh.Window) ssh.Window {
	w := min(binary.BigEndian.Uint32(b[0:]), tui.MaxWidth)
	h := min(binary.BigEndian.Uint32(b[4:]), tui.MaxHeight)
	if w == 0 {
		w = uint32(max(1, min(unset.Width, tui.MaxWidth)))
	}
	if h == 0 {
		h = uint32(max(1, min(unset.Height, tui.MaxHeight)))
	}
	binary.BigEndian.PutUint32(b[0:], w)
	binary.BigEndian.PutUint32(b[4:], h)
	return ssh.Window{Width: int(w), Height: int(h),
		WidthPixels: int(binary.BigEndian.Uint32(b[8:])), HeightPixels: int(binary.BigEndian.Uint32(b[12:]))}
}

// windows is a session's terminal size as the client last set it, waiting
// to be handed to the program: only the newest size is kept (winsize).
type windows = winsize.Coalescer[ssh.Window]

// newWindows returns a session's windows, with no size yet.
func newWindows() *windows { return winsize.New[ssh.Window]() }

// windowSize returns w's newest size, defaultWindow before any.
func windowSize(w *windows) ssh.Window {
	if win, ok := w.Current(); ok {
		return win
	}
	return defaultWindow()
}

// deliverWindows sends w's newest size on out whenever one is waiting, at
// most one per every, until ctx ends.
func deliverWindows(ctx context.Context, w *windows, out chan<- ssh.Window, every time.Duration) {
	w.Deliver(ctx, every, func(win ssh.Window) bool {
		select {
		case <-ctx.Done():
			return false
		case out <- win:
			return true
		}
	})
}

// WindowSizes is the middleware that hands the program its session's window sizes from windows
// (see deliver) instead of the library's channel, for as long as the
// handler after it runs.
func WindowSizes(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		w, ok := sess.Context().Value(ctxWindows).(*windows)
		if !ok {
			next(sess)
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		defer cancel()
		sizes := make(chan ssh.Window)
		go deliverWindows(ctx, w, sizes, ResizeInterval)
		next(sizedSession{Session: sess, win: w, sizes: sizes})
	}
}

// sizedSession is a session whose window sizes come from windows.
type sizedSession struct {
	ssh.Session
	win   *windows
	sizes <-chan ssh.Window
}

// Pty returns the session's terminal with its newest clamped size, and the
// channel of sizes that deliver feeds.
func (s sizedSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	p, _, ok := s.Session.Pty()
	if win, seen := s.win.Current(); seen {
		p.Window = win
	}
	return p, s.sizes, ok
}
