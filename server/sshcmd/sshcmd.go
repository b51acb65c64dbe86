// Package sshcmd is how grotto answers `ssh host CMD`: a Table of Commands,
// each with its name, arguments, who may run it, whether it goes on to a
// program with a terminal, and what it runs. The dispatcher, the usage
// lines, `help` and the unknown-command line all read the one table, so a
// command is added in one place (as soft-serve's and wish's commands are
// one value each, not a branch of a switch).
//
// The rules every command keeps: its answer is plain text, "\n" written as
// "\r\n" on a terminal; exit status 0 done, 1 refused or failed (a read
// that failed says so in one line, never with the cause's words), 2 bad
// usage. An admin's command is, for everyone else, an unknown command, so
// the table does not tell who holds the host tools. Whatever a client typed
// is echoed only made inert (tui.Inert): no escape reaches a terminal.
package sshcmd

import (
	"fmt"
	"io"
	"strings"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
)

// Call is one run of a Command: the session, the words after the
// command's name, and the session's stdout and stderr.
type Call struct {
	Session ssh.Session
	Args    []string  // the words after the command's name
	Out     io.Writer // the session's stdout, "\n" as "\r\n" on a terminal
	Err     io.Writer // the session's stderr, the same
}

// Command is one `ssh host CMD`.
type Command struct {
	// Name is the words that name it: "scores", "scores daily". The
	// longest name that begins the words typed is the one run.
	Name string
	// Args is its arguments as the usage line shows them: "ID",
	// "[NAME]", "TEXT…"; empty for none.
	Args string
	// Note is what the usage line says of the arguments, after them in
	// brackets: "a game `replays` lists"; may be empty.
	Note string
	// About is what it does, for `help`: "the 20 best scores".
	About string
	// Min and Max are how many arguments it takes; Max < 0 for no limit.
	// Any other count gets the usage line and status 2.
	Min, Max int
	// Admin: only admins may run it; for anyone else it is unknown.
	Admin bool
	// Program: with a terminal, the session goes on to the next handler
	// (a program: the replay player) once the arguments are checked; Run
	// answers a session without one.
	Program bool
	// Plain reports whether the arguments ask a Program command for an
	// answer Run writes even with a terminal (`replay ID --cast`); nil
	// for never.
	Plain func(args []string) bool
	// Run carries it out and returns the exit status.
	Run func(c *Call) int
}

// Usage is the command as its usage line and `help` show it:
// "replay ID", "scores daily [DATE]".
func (c Command) Usage() string {
	if c.Args == "" {
		return c.Name
	}
	return c.Name + " " + c.Args
}

// usageLine is "usage: replay ID (a game `replays` lists)".
func (c Command) usageLine() string {
	line := "usage: " + c.Usage()
	if c.Note != "" {
		line += " (" + c.Note + ")"
	}
	return line
}

// takes reports whether c takes n arguments.
func (c Command) takes(n int) bool { return n >= c.Min && (c.Max < 0 || n <= c.Max) }

// Table is the commands, in the order `help` lists them.
type Table []Command

// Find returns the command words name for one who is an admin or not
// (admin), with the words after its name: the command with the longest
// name that begins words. ok is false for words that name none.
func (t Table) Find(words []string, admin bool) (c Command, args []string, ok bool) {
	best := -1
	for _, cmd := range t {
		name := strings.Fields(cmd.Name)
		if (cmd.Admin && !admin) || len(name) > len(words) || len(name) <= best {
			continue
		}
		if equalWords(name, words[:len(name)]) {
			c, args, ok, best = cmd, words[len(name):], true, len(name)
		}
	}
	return c, args, ok
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Handler returns the session handler that answers a session with a
// command by the table and ends it, and hands one without a command, or
// a Program command with a terminal, to next. isAdmin says whether the
// session's key is an admin's.
func (t Table) Handler(isAdmin func(ssh.Session) bool, next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		words := sess.Command()
		if len(words) == 0 {
			next(sess)
			return
		}
		errOut := Newlines(sess.Stderr(), sess)
		c, args, ok := t.Find(words, isAdmin(sess))
		if !ok {
			fmt.Fprintf(errOut, "grotto: unknown command %q; try %s, or no command to play\n", tui.Inert(strings.Join(words, " ")), t.list())
			sess.Exit(1)
			return
		}
		if !c.takes(len(args)) {
			fmt.Fprintln(errOut, "grotto: "+c.usageLine())
			sess.Exit(2)
			return
		}
		if _, _, pty := sess.Pty(); c.Program && pty && (c.Plain == nil || !c.Plain(args)) {
			next(sess)
			return
		}
		sess.Exit(c.Run(&Call{Session: sess, Args: args, Out: Newlines(sess, sess), Err: errOut}))
	}
}

// list is the players' commands for the unknown-command line:
// "`help`, `scores`, … or `web`".
func (t Table) list() string {
	var names []string
	for _, c := range t {
		if !c.Admin {
			names = append(names, "`"+c.Usage()+"`")
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Help writes the commands one may run (an admin's too for an admin
// (admin)), one a line: usage, then what it does; then how to play. ssh
// is the command line a command follows ("ssh -p 23234 host"), play the
// one that plays ("ssh -t -p 23234 host").
func (t Table) Help(w io.Writer, admin bool, ssh, play string) {
	width := 0
	for _, c := range t {
		if !c.Admin || admin {
			width = max(width, len(c.Usage()))
		}
	}
	fmt.Fprintf(w, "Commands (%s COMMAND):\n", ssh)
	for _, c := range t {
		if !c.Admin || admin {
			about := c.About
			if c.Admin {
				about += " (admins)"
			}
			fmt.Fprintf(w, "  %-*s  %s\n", width, c.Usage(), about)
		}
	}
	fmt.Fprintf(w, "\nWith no command, %s plays.\n", play)
}

// Newlines returns w with "\n" written as "\r\n" when the session has a
// terminal, which needs it.
func Newlines(w io.Writer, sess ssh.Session) io.Writer {
	if _, _, pty := sess.Pty(); pty {
		return crlf{w}
	}
	return w
}

type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	_, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n")))
	return len(p), err
}
