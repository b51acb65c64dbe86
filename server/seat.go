package server

// This file: the seat, where a player's session runs. play (server.go) is
// the one session path; an SSH session (sshSeat) and a browser's play page
// (webSeat, web.go) are its two seats.

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/lobby"
)

// seat is the terminal a player's session runs on.
type seat interface {
	// who is the key playing (its fingerprint) and, over SSH, the user
	// name, which suggests a name.
	who() identity
	// browser reports whether the seat is a browser's page.
	browser() bool
	// programOptions connect a program to the seat's screen: its
	// output, first size and colours. Input, rate and frame rate are
	// play's, the same for every seat.
	programOptions() []tea.ProgramOption
	// keys returns what the player types, raw (play sanitizes it:
	// server/input), and a context that ends with the seat.
	keys() (ctx context.Context, r io.Reader)
	// conn is the connection keepalives go on; nil for none.
	conn() lobby.Conn
	// run runs prog until it ends.
	run(prog *tea.Program)
	// fail ends a session that could not begin, with line and status 1.
	fail(line string)
	// end ends the session with line ("" for none) and status code.
	end(line string, code int)
}

// sshSeat is an SSH session's terminal; next is the rest of the
// middleware chain, which runs the program (chain.go).
type sshSeat struct {
	s    *Server
	sess ssh.Session
	next ssh.Handler
}

func (t sshSeat) who() identity { id, _ := t.sess.Context().Value(ctxIdentity).(identity); return id }

func (t sshSeat) browser() bool { return false }

func (t sshSeat) programOptions() []tea.ProgramOption {
	opts := bubbletea.MakeOptions(t.sess)
	if pty, _, ok := t.sess.Pty(); ok {
		// A client may claim any size; Bubble Tea allocates a screen of
		// it. The request filter (server/guard) already clamped the
		// pty-req and clamps every window-change; this keeps the first
		// size safe on its own too.
		opts = append(opts, tea.WithWindowSize(min(max(pty.Window.Width, 0), tui.MaxWidth), min(max(pty.Window.Height, 0), tui.MaxHeight)))
	}
	return opts
}

// keys reads the session itself, or the PTY's slave side (inputOf).
func (t sshSeat) keys() (context.Context, io.Reader) {
	return t.sess.Context(), inputOf(t.sess)
}

func (t sshSeat) conn() lobby.Conn {
	c, _ := t.sess.Context().Value(ssh.ContextKeyConn).(lobby.Conn)
	return c
}

// run hands prog to the bubbletea middleware (programOf), which runs it.
func (t sshSeat) run(prog *tea.Program) {
	t.sess.Context().SetValue(ctxProgram, prog)
	t.next(t.sess)
}

func (t sshSeat) fail(line string) { wish.Fatalln(t.sess, line+"\r") }

func (t sshSeat) end(line string, code int) {
	if line != "" {
		wish.Println(t.sess, line+"\r")
	}
	t.sess.Exit(code)
}
