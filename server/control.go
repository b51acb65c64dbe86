package server

// This file: the control socket, a unix socket in the data dir through
// which the host's own commands reach the running server: `grotto backup`
// asks it for an online copy of the bbolt database. Only the data dir's
// owner reaches it (the socket is 0600 in a directory grotto made 0700).
//
// The protocol is one request line, "backup\n", answered by "OK <bytes>\n"
// and that many bytes of the database file, or "ERR <why>\n".

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
	"time"
)

// ControlSocket is the control socket's file name in the data dir.
const ControlSocket = "control.sock"

// controlRequestWait bounds how long the control socket waits for a
// request line.
const controlRequestWait = 10 * time.Second

// backupStore is a store that can copy itself while it serves (bbolt).
type backupStore interface {
	Backup(w io.Writer, size func(int64) error) (int64, error)
}

// listenControl makes the control socket, when the store can back itself
// up; it logs and goes on without one when the socket cannot be made (a
// data dir path too long for a unix socket, say).
func (s *Server) listenControl() {
	if _, ok := s.store.(backupStore); !ok {
		return
	}
	path := filepath.Join(s.cfg.DataDir, ControlSocket)
	os.Remove(path) // a socket left by a run that was killed: the store's lock says no other run is here
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
	s.controlLn = ln
}

// serveControl serves the control socket until stop closes, then removes
// it.
func (s *Server) serveControl(stop <-chan struct{}) {
	ln := s.controlLn
	if ln == nil {
		return
	}
	go func() {
		<-stop
		s.closeControl()
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go s.control(c)
	}
}

// closeControl closes the control socket, if any, and removes its file.
func (s *Server) closeControl() {
	if s.controlLn != nil {
		s.controlLn.Close() // a unix listener removes its file as it closes
	}
}

// control answers one request on the control socket.
func (s *Server) control(c net.Conn) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(controlRequestWait))
	line, err := bufio.NewReader(io.LimitReader(c, 256)).ReadString('\n')
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	switch strings.TrimSpace(line) {
	case "backup":
		start := time.Now()
		n, err := s.store.(backupStore).Backup(c, func(size int64) error {
			_, err := fmt.Fprintf(c, "OK %d\n", size)
			return err
		})
		if err != nil {
			s.log.Error("backup: failed", "bytes", n, "err", err)
			fmt.Fprintf(c, "ERR %s\n", oneLine(err.Error())) // unless the copy began: the client counts its bytes
			return
		}
		s.log.Info("backup: copied the database while serving", "bytes", n, "took", time.Since(start).Round(time.Millisecond))
	default:
		fmt.Fprintf(c, "ERR unknown request %q\n", oneLine(line))
	}
}

// oneLine is text with its line breaks made spaces.
func oneLine(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// RequestBackup asks the server whose control socket is at socket for an
// online copy of its database and writes it to w. It returns the bytes
// copied. Errors: the socket cannot be reached (no server runs on that
// data dir, or it is another user's), the server's own refusal, or a copy
// cut short (fewer bytes than announced).
func RequestBackup(socket string, w io.Writer) (int64, error) {
	c, err := net.Dial("unix", socket)
	if err != nil {
		return 0, fmt.Errorf("no running grotto answers on %s: %w", socket, err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "backup\n"); err != nil {
		return 0, err
	}
	r := bufio.NewReader(c)
	head, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("the server closed the control socket before answering: %w", err)
	}
	head = strings.TrimSpace(head)
	if why, ok := strings.CutPrefix(head, "ERR "); ok {
		return 0, errors.New("the server refused: " + why)
	}
	sizeText, ok := strings.CutPrefix(head, "OK ")
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if !ok || err != nil || size < 0 {
		return 0, fmt.Errorf("the server answered %q, not a backup", head)
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
