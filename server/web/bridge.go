package web

// This file: a Bubble Tea program whose terminal is a WebSocket. Its output
// goes to the page as binary messages, with "\n" sent as "\r\n" as a PTY
// would (Bubble Tea writes bare newlines when its input is no TTY); the
// page's text messages are resizes, delivered as tea.WindowSizeMsg,
// coalesced (winsize: at most one per Interval, the newest) and no larger
// than tui.MaxWidth x tui.MaxHeight, what the game draws (pageSize). A
// replay page runs its model on it; a play page (play.go) the player's
// session, its keys read from the page's binary messages; a watch page
// only its socket, sent the output of its game's shared program (send;
// mirror.go) and its resizes handed to that (onSize).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/winsize"
)

// bridge is the terminal of one program: a WebSocket.
type bridge struct {
	conn    *websocket.Conn
	ctx     context.Context // the program's: cancelled when the bridge closes
	cancel  context.CancelFunc
	timeout time.Duration // most a write may take (WriteTimeout)
	// keys are the keys the page may send, by name ({"key":"space"}), as
	// the key presses they are; nil takes none (a watch page).
	keys map[string]tea.KeyPressMsg
	// keyRate, with keys, paces them: a key past it is read no faster
	// (ReplayKeysPerSec after ReplayKeyBurst).
	keyRate *rate.Limiter
	// limit is the largest message the page may send, in bytes; tooBig
	// the close reason (status 1009) of a larger one.
	limit  int64
	tooBig string
	// sizes holds the page's newest resize until read's deliverer hands
	// it to the program (winsize.Interval apart at least).
	sizes *winsize.Coalescer[tea.WindowSizeMsg]

	// keepLast, set by run (replay pages) and watchShared (watch pages), drops the program's
	// output once the bridge has closed: its teardown (leaving the
	// alternate screen) would blank the page, which keeps the last frame
	// beside the close reason.
	keepLast bool
	// onSize, when set (a page of a shared renderer: mirror.go), is
	// given the page's coalesced resizes instead of the program.
	onSize func(tea.WindowSizeMsg)
	// onSay, when set before read runs (a watch page that may talk:
	// chat.go), is given each line the page says ({"say":"…"}); it
	// returns false to stop reading (the page has gone).
	onSay func(text string) bool

	mu     sync.Mutex
	closed bool
	status websocket.StatusCode // why the bridge closed (close)
	reason string
}

// newBridge returns the bridge of conn, ending with parent.
func newBridge(parent context.Context, conn *websocket.Conn, timeout time.Duration) *bridge {
	ctx, cancel := context.WithCancel(parent)
	// The bridge enforces the limit itself (read), to close with its own
	// reason rather than the library's "read limited at N bytes".
	conn.SetReadLimit(-1)
	return &bridge{conn: conn, ctx: ctx, cancel: cancel, timeout: timeout, limit: MaxMessage,
		tooBig: "The page sent a message too large for grotto.", sizes: winsize.New[tea.WindowSizeMsg]()}
}

// Write implements io.Writer for the program's output: one binary message
// per write, within the write timeout. A page that does not take it in time
// is closed: its program ends.
func (b *bridge) Write(p []byte) (int, error) {
	if err := b.send(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// send writes msg, terminal output as the page takes it ("\r\n"), as one
// binary message within the write timeout, or drops it once the bridge
// has closed and keeps its last frame (keepLast). A page that does not
// take it in time is closed with status 1008.
func (b *bridge) send(msg []byte) error {
	b.mu.Lock()
	drop := b.closed && b.keepLast
	b.mu.Unlock()
	if drop {
		return nil
	}
	return b.write(websocket.MessageBinary, msg)
}

// write writes msg as one message of type typ within the write timeout;
// a page that does not take it in time is closed with status 1008, and
// one whose connection failed closes.
func (b *bridge) write(typ websocket.MessageType, msg []byte) error {
	// Not b.ctx: cancelling a write's context closes the connection
	// (coder/websocket), and the bridge's close must still send its reason.
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	if err := b.conn.Write(ctx, typ, msg); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			b.close(websocket.StatusPolicyViolation, "This page fell too far behind the game. Reload it to watch again.")
		}
		b.close(websocket.StatusAbnormalClosure, "")
		return err
	}
	return nil
}

// sendText writes msg, a JSON text message (a watch page's chat:
// chat.go), within the write timeout, or drops it once the bridge has
// closed. A page that does not take it in time is closed with status 1008.
func (b *bridge) sendText(msg []byte) error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return context.Canceled
	}
	return b.write(websocket.MessageText, msg)
}

// close ends the program; the first call's status and reason (a sentence
// the page shows; at most 123 bytes, RFC 6455 section 5.5) are what
// finish sends the page.
func (b *bridge) close(status websocket.StatusCode, reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed, b.status, b.reason = true, status, reason
	}
	b.cancel()
}

// finish closes the WebSocket with the status and reason of the first
// close (1000 if none), waiting a few seconds at most for the page's reply.
func (b *bridge) finish() {
	b.close(websocket.StatusNormalClosure, "")
	b.mu.Lock()
	status, reason := b.status, b.reason
	b.mu.Unlock()
	if status == websocket.StatusAbnormalClosure { // the connection is gone already
		b.conn.CloseNow()
		return
	}
	b.conn.Close(status, reason)
}

// pageSize is the size a program on a page is given for a page of cols x
// rows: at most tui.MaxWidth x tui.MaxHeight, whatever the page claims. A
// larger page shows the frame in its top-left and nothing beyond; the
// program's screen buffers (two of about 120 bytes a cell, Bubble Tea's
// renderer) stay those of the game's size.
func pageSize(cols, rows int) tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: min(cols, tui.MaxWidth), Height: min(rows, tui.MaxHeight)}
}

// resize is the text message a page sends when its terminal changes size,
// or, on a page that takes keys (bridge.keys), a key: {"key":"space"}.
type resize struct {
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	Key  string `json:"key,omitempty"`
	// Say is a chat line, from a watch page that may talk (bridge.onSay).
	Say *string `json:"say,omitempty"`
}

// read reads the page's messages until the connection ends, handing each
// resize (a text message) to prog through b.sizes (coalesced, clamped by
// pageSize; resizes are read no faster than winsize.ReportsPerSec), each key of b.keys ({"key":"space"}, a
// replay page's) as its key press (at most b.keyRate of them: a flood is
// read no faster), and the bytes of each binary message to
// keys (a play page's keys), or, when keys is nil (a watch page: no key is
// taken from a watcher), closing the connection with status 1003.
// A chat line ({"say":"…"}) goes to b.onSay, when set.
// Anything else is refused too: a key not in b.keys, a text that is not a
// resize, and any message over b.limit bytes, closed with status 1009 and
// b.tooBig. A write to keys waits for the
// session to read it: a page that types faster than the session's input
// rate is slowed down.
func (b *bridge) read(prog *tea.Program, keys io.Writer) {
	go b.sizes.Deliver(b.ctx, winsize.Interval, func(size tea.WindowSizeMsg) bool {
		if b.onSize != nil {
			b.onSize(size)
			return b.ctx.Err() == nil
		}
		prog.Send(size) // returns once the program has read it, or has ended
		return b.ctx.Err() == nil
	})
	resizes := rate.NewLimiter(winsize.ReportsPerSec, winsize.ReportBurst)
	for {
		// Not b.ctx (see Write): the read ends when the connection closes.
		typ, r, err := b.conn.Reader(context.Background())
		if err != nil {
			b.close(websocket.StatusAbnormalClosure, "")
			return
		}
		data, err := io.ReadAll(io.LimitReader(r, b.limit+1))
		if err != nil {
			b.close(websocket.StatusAbnormalClosure, "")
			return
		}
		if int64(len(data)) > b.limit {
			b.close(websocket.StatusMessageTooBig, b.tooBig)
			return
		}
		if typ == websocket.MessageBinary && keys != nil {
			if _, err := keys.Write(data); err != nil {
				return // the session has ended
			}
			continue
		}
		var m resize
		ok := typ == websocket.MessageText && json.Unmarshal(data, &m) == nil
		if ok && m.Say != nil && b.onSay != nil && m.Key == "" && m.Cols == 0 && m.Rows == 0 {
			if !b.onSay(*m.Say) {
				b.close(websocket.StatusAbnormalClosure, "")
				return
			}
			continue
		}
		if k, isKey := b.keys[m.Key]; ok && m.Key != "" && isKey { // a key the page may send
			prog.Send(k)
			if b.keyRate != nil && b.keyRate.Wait(b.ctx) != nil { // a flood is read no faster (the page waits)
				b.close(websocket.StatusAbnormalClosure, "")
				return
			}
			continue
		}
		if !ok || m.Key != "" || m.Cols < 1 || m.Rows < 1 {
			b.close(websocket.StatusUnsupportedData, "The page sent a message grotto does not understand.")
			return
		}
		b.sizes.Set(pageSize(m.Cols, m.Rows))
		if resizes.Wait(b.ctx) != nil { // a flood is read no faster (the page waits)
			b.close(websocket.StatusAbnormalClosure, "")
			return
		}
	}
}

// run runs model on the bridge at cols x rows (clamped: pageSize) until
// the page goes, the bridge closes or the model quits, at most fps frames
// a second, and returns what Bubble Tea returns. Once the bridge closes, the page keeps
// the program's last frame (keepLast). register (Server.register) counts the
// program among the running pages while it runs.
func (b *bridge) run(model tea.Model, cols, rows, fps int, register func(*tea.Program) func()) error {
	b.mu.Lock()
	b.keepLast = true
	b.mu.Unlock()
	size := pageSize(cols, rows)
	prog := tea.NewProgram(model, tea.WithContext(b.ctx), tea.WithInput(nil), tea.WithOutput(b),
		tea.WithWindowSize(size.Width, size.Height), tea.WithoutSignalHandler(), tea.WithFPS(fps),
		// xterm.js draws true colour (xterm.js docs, "Supported Terminal Sequences").
		tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor"}))
	go b.read(prog, nil)
	defer register(prog)()
	_, err := prog.Run()
	return err
}
