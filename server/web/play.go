package web

// This file: the play page, /play, and its WebSocket, /play/ws?cols=N&rows=N,
// where a browser tied to a key (tokens.go) plays that key's game. The
// session itself is the server's (Players): the same path an SSH session
// runs, with its rules (one live game per key, the journal, the limits,
// the idle timeout). This file only makes the page a terminal for it: a
// Seat.

import (
	"context"
	"io"
	"net/http"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game/tui"
)

// Players runs the sessions of play pages; the server implements it with
// the session path of its SSH sessions.
type Players interface {
	// Admit returns nil when key fp may play now, else an error whose
	// text (one sentence) the page shows: a banned key.
	Admit(fp string) error
	// Play runs key fp's session on seat until it ends, and ends the seat
	// (Seat.End) with the line the player reads.
	Play(seat *Seat)
}

// playPage serves /play: the terminal a browser plays in. Whether the
// browser may play is the WebSocket's to say (its cookie is SameSite
// Strict, which a page opened from another site would not send).
func (s *Server) playPage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Tokens == nil || s.cfg.Players == nil {
		s.notFound(w, "This server does not let browsers play.")
		return
	}
	s.render(w, http.StatusOK, "play.html", nil)
}

// playSocket serves /play/ws: 400 for a size that is not two whole
// numbers from 1; a browser without a live play session, or whose key is
// refused (banned), gets the WebSocket closed at once with status 1008 and
// the reason, which the page shows; one refused by Config.Gate, 1013 and
// the reason. Otherwise the key's session runs on
// the page (Players.Play) until it ends; its last line is written to the
// terminal and is the close reason (status 1000).
func (s *Server) playSocket(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Tokens == nil || s.cfg.Players == nil {
		s.notFound(w, "This server does not let browsers play.")
		return
	}
	cols, okC := dimension(r.URL.Query().Get("cols"), tui.MaxWidth)
	rows, okR := dimension(r.URL.Query().Get("rows"), tui.MaxHeight)
	if !okC || !okR {
		http.Error(w, "cols and rows must be whole numbers from 1", http.StatusBadRequest)
		return
	}
	fp, refused := s.sessionKey(r)
	if refused == nil {
		refused = s.cfg.Players.Admit(fp)
	}
	leave, tooMany := s.enter(r)
	if tooMany != nil {
		refuse(w, r, tooMany)
		return
	}
	defer leave()
	conn, err := websocket.Accept(w, r, nil) // same origin only (the library's default)
	if err != nil {
		return // Accept has answered
	}
	// Not s.ctx: a play page is a session of the server, which ends it
	// (saving the game) at its shutdown; the web server's own shutdown,
	// which comes first, must not cut it short.
	b := newBridge(context.Background(), conn, s.cfg.WriteTimeout)
	b.limit, b.tooBig = MaxPlayMessage, TooBigPaste
	defer b.finish()
	if refused != nil {
		b.close(websocket.StatusPolicyViolation, reason(refused.Error()))
		return
	}
	keys, typed := io.Pipe()
	seat := &Seat{fp: fp, b: b, cols: cols, rows: rows, keys: keys, typed: typed}
	defer keys.Close()
	s.cfg.Players.Play(seat)
}

// Seat is a play page as the terminal of a player's session: the page's
// keys in, the program's output out, its size, its end.
type Seat struct {
	fp         string
	b          *bridge
	cols, rows int
	keys       *io.PipeReader // what the page typed, as the session reads it
	typed      *io.PipeWriter
}

// Fingerprint returns the key the page is tied to.
func (t *Seat) Fingerprint() string { return t.fp }

// Context ends when the page goes (or the seat ends).
func (t *Seat) Context() context.Context { return t.b.ctx }

// Keys returns what the page's player types: the bytes of its binary
// messages (xterm.js's onData, UTF-8), raw; the reader ends with the page.
// The session must sanitize them, as an SSH client's.
func (t *Seat) Keys() io.Reader { return t.keys }

// Term is the terminal type the page emulates.
func (t *Seat) Term() string { return "xterm-256color" }

// Output is the page's terminal, where the program's frames go (Options
// already sets it; a caller may wrap it, e.g. to time keys to frames).
func (t *Seat) Output() io.Writer { return t.b }

// Options connect a program to the page: its output (as a PTY would
// write it), its first size (at most tui.MaxWidth x tui.MaxHeight, as
// every size a page sends: pageSize), true colour, the page's context; and a
// filter that turns suspend (ctrl+z) into resume, as wish does for SSH
// (there is no shell to suspend to). Input and frame rate are the
// session's.
func (t *Seat) Options() []tea.ProgramOption {
	size := pageSize(t.cols, t.rows)
	return []tea.ProgramOption{tea.WithContext(t.b.ctx), tea.WithOutput(t.b), tea.WithWindowSize(size.Width, size.Height),
		// xterm.js draws true colour (xterm.js docs, "Supported Terminal Sequences").
		tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=" + t.Term(), "COLORTERM=truecolor"}),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.SuspendMsg); ok {
				return tea.ResumeMsg{}
			}
			return msg
		})}
}

// Run runs prog, made with Options, until it ends: the page's binary
// messages are its keys (Keys), its text messages resizes (coalesced:
// winsize).
func (t *Seat) Run(prog *tea.Program) error {
	go func() {
		t.b.read(prog, t.typed)
		t.typed.Close()
	}()
	_, err := prog.Run()
	return err
}

// End ends the seat: line ("" for none) is written to the terminal and
// sent as the close reason, with status 1000 when ok, else 1008.
func (t *Seat) End(line string, ok bool) {
	if line != "" {
		t.b.Write([]byte("\n" + line + "\n"))
	}
	status := websocket.StatusNormalClosure
	if !ok {
		status = websocket.StatusPolicyViolation
	}
	t.b.close(status, reason(line))
}

// reason fits line into a WebSocket close reason: at most 123 bytes (RFC
// 6455, section 5.5), cut at a character with "…".
func reason(line string) string {
	const most = 123
	if len(line) <= most {
		return line
	}
	cut := most - len("…")
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}
