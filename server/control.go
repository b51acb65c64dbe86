package server

// This file: the control socket, a unix socket in the data dir through
// which the host's own commands reach the running server: `grotto backup`
// asks it for an online copy of the bbolt database. Only the data dir's
// owner reaches it (the socket is 0600 in a directory grotto made 0700).
//
// The protocol is one request line: "backup\n", answered by
// "OK <bytes> <database path>\n" and that many bytes of the database file,
// or "ERR <why>\n"; or "path\n", answered by "OK <database path>\n".
//
// The copy is made inside one bbolt read transaction into a file in the
// data dir, then sent from that file: a commit that must grow bbolt's
// memory map waits for open read transactions, so a client that reads
// slowly (or not at all) must never hold one, or every player would wait
// with it.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ControlSocket is the control socket's file name in the data dir.
const ControlSocket = "control.sock"

// backupTempPattern names the copies being made in the data dir
// (os.CreateTemp); one a killed run left behind is removed at start.
const backupTempPattern = ".backup-*.db"

// controlRequestWait bounds how long the control socket waits for a
// request line; controlWriteWait how long a write of the copy to the
// client may make no progress before the copy is abandoned.
const (
	controlRequestWait = 10 * time.Second
	controlWriteWait   = 30 * time.Second
)

// maxSocketPath is the longest path a unix socket may have on Linux
// (sun_path is 108 bytes, its NUL included).
const maxSocketPath = 107

// backupStore is a store that can copy itself while it serves (bbolt).
type backupStore interface {
	Backup(w io.Writer, size func(int64) error) (int64, error)
	Path() string
}

// control is the control socket's state: its listener and the connections
// it serves, closed together at shutdown.
type control struct {
	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// listenControl makes the control socket, when the store can back itself
// up; it logs and goes on without one when the socket cannot be made (a
// data dir path too long for a unix socket, say), or when another grotto
// already answers on it (two servers sharing a data dir: backups reach the
// first).
func (s *Server) listenControl() {
	if _, ok := s.store.(backupStore); !ok {
		return
	}
	if left, _ := filepath.Glob(filepath.Join(s.cfg.DataDir, backupTempPattern)); len(left) > 0 {
		for _, f := range left { // copies a killed run was making
			os.Remove(f)
		}
	}
	path := filepath.Join(s.cfg.DataDir, ControlSocket)
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		s.log.Warn("no control socket: another grotto answers on this data dir's; grotto backup reaches that one", "path", path)
		return
	}
	os.Remove(path) // a socket left by a run that was killed
	ln, err := net.Listen("unix", path)
	if err == nil {
		if err = os.Chmod(path, 0o600); err != nil {
			ln.Close()
		}
	}
	if err != nil {
		s.log.Warn("no control socket: grotto backup cannot reach this server", "path", path, "err", err)
		return
	}
	s.ctl = &control{ln: ln, conns: map[net.Conn]struct{}{}}
}

// serveControl serves the control socket until stop closes, then closes
// it.
func (s *Server) serveControl(stop <-chan struct{}) {
	ctl := s.ctl
	if ctl == nil {
		return
	}
	go func() {
		<-stop
		s.closeControl()
	}()
	for {
		c, err := ctl.ln.Accept()
		if err != nil {
			return
		}
		ctl.mu.Lock()
		if ctl.conns == nil { // closed meanwhile
			ctl.mu.Unlock()
			c.Close()
			return
		}
		ctl.conns[c] = struct{}{}
		ctl.mu.Unlock()
		go func() {
			defer func() {
				ctl.mu.Lock()
				delete(ctl.conns, c)
				ctl.mu.Unlock()
				c.Close()
			}()
			s.control(c)
		}()
	}
}

// closeControl closes the control socket, if any (its file goes with it),
// and every connection on it: a copy being sent is abandoned.
func (s *Server) closeControl() {
	ctl := s.ctl
	if ctl == nil {
		return
	}
	ctl.ln.Close()
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	for c := range ctl.conns {
		c.Close()
	}
	ctl.conns = nil
}

// control answers one request on the control socket.
func (s *Server) control(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(controlRequestWait))
	line, err := bufio.NewReader(io.LimitReader(c, 256)).ReadString('\n')
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	switch strings.TrimSpace(line) {
	case "backup":
		s.sendBackup(c)
	case "path":
		fmt.Fprintf(c, "OK %s\n", s.store.(backupStore).Path())
	default:
		fmt.Fprintf(c, "ERR unknown request %q\n", oneLine(line))
	}
}

// sendBackup copies the database into a file in the data dir, inside one
// read transaction, then sends that file to c, giving up when c takes no
// bytes for controlWriteWait.
func (s *Server) sendBackup(c net.Conn) {
	st := s.store.(backupStore)
	start := time.Now()
	fail := func(err error) {
		s.log.Error("backup: failed", "err", err)
		c.SetWriteDeadline(time.Now().Add(time.Second))
		fmt.Fprintf(c, "ERR %s\n", oneLine(err.Error()))
	}
	tmp, err := os.CreateTemp(s.cfg.DataDir, backupTempPattern)
	if err != nil {
		fail(fmt.Errorf("no room for the copy in the data dir: %w", err))
		return
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := st.Backup(tmp, func(int64) error { return nil })
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		fail(err)
		return
	}
	copied := time.Since(start)
	w := &progressWriter{c: c}
	if _, err := fmt.Fprintf(w, "OK %d %s\n", n, st.Path()); err != nil {
		return
	}
	sent, err := io.Copy(w, tmp)
	if err != nil || sent != n {
		s.log.Warn("backup: the client did not take the copy", "sent", sent, "bytes", n, "err", err)
		return
	}
	s.log.Info("backup: copied the database while serving", "bytes", n, "copy", copied.Round(time.Millisecond),
		"sent", time.Since(start).Round(time.Millisecond))
}

// progressWriter writes to c, failing a write that makes no progress for
// controlWriteWait.
type progressWriter struct{ c net.Conn }

func (w *progressWriter) Write(p []byte) (int, error) {
	w.c.SetWriteDeadline(time.Now().Add(controlWriteWait))
	return w.c.Write(p)
}

// oneLine is text with its line breaks made spaces.
func oneLine(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// DatabasePath asks the server whose control socket is at socket for its
// database file's path (on its machine), so that a backup can be refused
// before the server copies anything. Errors: as RequestBackup's.
func DatabasePath(socket string) (string, error) {
	c, head, _, err := askControl(socket, "path", controlRequestWait)
	if err != nil {
		return "", err
	}
	defer c.Close()
	path, ok := strings.CutPrefix(head, "OK ")
	if !ok || path == "" {
		return "", fmt.Errorf("the server answered %q, not a path", head)
	}
	return path, nil
}

// askControl sends request to the control socket at socket and returns
// the connection, the answer's first line (without its newline, awaited
// at most wait; 0 for no bound) and the reader holding what follows it. An "ERR" answer is returned as an error
// (the connection closed), as are the connection's own errors.
func askControl(socket, request string, wait time.Duration) (net.Conn, string, *bufio.Reader, error) {
	if len(socket) > maxSocketPath {
		return nil, "", nil, fmt.Errorf("%s is %d bytes long, past a unix socket's %d: the server has no control socket; start it with a shorter --data path", socket, len(socket), maxSocketPath)
	}
	c, err := net.Dial("unix", socket)
	if err != nil {
		return nil, "", nil, fmt.Errorf("no running grotto answers on %s (is one running with this --data? a node on PostgreSQL keeps no database there: back PostgreSQL up with pg_dump, docs/hosting.md): %w", socket, err)
	}
	if _, err := io.WriteString(c, request+"\n"); err != nil {
		c.Close()
		return nil, "", nil, err
	}
	if wait > 0 {
		c.SetReadDeadline(time.Now().Add(wait))
	}
	r := bufio.NewReader(c)
	head, err := r.ReadString('\n')
	if err != nil {
		c.Close()
		return nil, "", nil, fmt.Errorf("the server closed the control socket before answering: %w", err)
	}
	c.SetReadDeadline(time.Time{})
	head = strings.TrimSuffix(head, "\n")
	if why, ok := strings.CutPrefix(head, "ERR "); ok {
		c.Close()
		return nil, "", nil, errors.New("the server refused: " + why)
	}
	return c, head, r, nil
}

// BackupHeader is what the server says of a copy before sending it.
type BackupHeader struct {
	Size     int64  // bytes of the copy that follow
	Database string // the database file's path, on the server's machine
}

// RequestBackup asks the server whose control socket is at socket for an
// online copy of its database; header, once the server has announced it,
// may refuse it (return an error) before any byte of it is written to w.
// It returns the bytes copied. Errors: the socket cannot be reached (no
// server runs on that data dir, it is another user's, or its path is too
// long for a unix socket), the server's own refusal, header's, or a copy
// cut short (fewer bytes than announced).
func RequestBackup(socket string, w io.Writer, header func(BackupHeader) error) (int64, error) {
	c, head, r, err := askControl(socket, "backup", 0) // the copy is made before the header: no bound
	if err != nil {
		return 0, err
	}
	defer c.Close()
	rest, ok := strings.CutPrefix(head, "OK ")
	sizeText, db, _ := strings.Cut(rest, " ")
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if !ok || err != nil || size < 0 {
		return 0, fmt.Errorf("the server answered %q, not a backup", head)
	}
	if header != nil {
		if err := header(BackupHeader{Size: size, Database: db}); err != nil {
			return 0, err
		}
	}
	n, err := io.Copy(w, io.LimitReader(r, size))
	if err != nil {
		return n, err
	}
	if n != size {
		return n, fmt.Errorf("the copy stopped after %d of %d bytes", n, size)
	}
	return n, nil
}
