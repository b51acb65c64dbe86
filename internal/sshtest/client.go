// The SSH client: dialling, starting the session, sending input, resizing,
// and tearing the connection down.

package sshtest

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults applied by [Dial] to the zero fields of [Options].
const (
	DefaultWidth       = 80               // columns
	DefaultHeight      = 24               // rows
	DefaultTerm        = "xterm-256color" // $TERM sent in the pty-req
	DefaultUser        = "sshtest"        // SSH user name
	DefaultDialTimeout = 10 * time.Second // TCP connect, handshake and session start
)

// ErrSessionEnded is returned by [Client.WaitFor] and [Client.WaitForText]
// when the session ends before the awaited screen appears.
var ErrSessionEnded = errors.New("sshtest: session ended")

// ErrNoClient is returned by the methods of a nil *[Client] (the value a
// failed [Dial] returns beside its error): a test that kept using it fails
// saying so instead of panicking and aborting the rest of its package.
var ErrNoClient = errors.New("sshtest: no client: the dial failed")

// ended is the Done channel of a nil *Client: a session that never began
// has ended.
var ended = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

// Options configure a [Client]. The zero value asks for an interactive shell
// on an 80×24 xterm-256color PTY as user "sshtest".
type Options struct {
	// Width and Height are the terminal size in cells (columns, rows), sent
	// in the pty-req and used for the emulated screen. Zero means
	// DefaultWidth and DefaultHeight.
	Width, Height int
	// Claim, when set, is the size (columns, rows) sent in the pty-req
	// instead of Width x Height, which stays the emulated screen's: a
	// client that claims a size its terminal is not. {0, 0} claims none
	// at all, as `ssh -tt host </dev/null` does.
	Claim *Size
	// Term is the terminal type sent in the pty-req. Empty means DefaultTerm.
	Term string
	// NoPTY skips the pty-req, as `ssh -T` does. The output is still fed to
	// the emulated screen, but [Client.Output] is usually what to read.
	NoPTY bool
	// Command, when not empty, is run with an exec request instead of
	// starting a shell.
	Command string
	// User is the SSH user name. Empty means DefaultUser.
	User string
	// Env holds variables sent with env requests before the session starts,
	// in key order. A server that refuses one makes [Dial] fail.
	Env map[string]string
	// DialTimeout bounds the TCP connect, the SSH handshake and the session
	// setup together. Zero means DefaultDialTimeout.
	DialTimeout time.Duration
	// DiscardOutput keeps no copy of the bytes received (Output returns
	// nothing; BytesReceived still counts them), for long load runs.
	DiscardOutput bool
	// OnBytes, if set, is called with the size of each chunk of output as
	// it arrives, from the client's reader goroutine.
	OnBytes func(n int)
	// Offer are public keys the client tries, in order, before the key
	// Dial was given: each is offered first (the server says whether it
	// would accept it) and then signed with (golang.org/x/crypto/ssh's
	// public-key method). A signer whose PublicKey is another's plays a
	// client that offers a key it cannot sign with (CVE-2023-43809).
	Offer []gossh.Signer
}

// Size is a terminal size in cells.
type Size struct{ Cols, Rows int }

func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = DefaultWidth
	}
	if o.Height <= 0 {
		o.Height = DefaultHeight
	}
	if o.Term == "" {
		o.Term = DefaultTerm
	}
	if o.User == "" {
		o.User = DefaultUser
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = DefaultDialTimeout
	}
	return o
}

// Client is one SSH connection carrying one session, whose output is played
// into a terminal emulator the way a real terminal would show it. The
// emulator's answers to terminal queries (device attributes, colours, mode
// reports, cursor position) are sent back to the server as input, as a real
// terminal does.
//
// All methods are safe for concurrent use. Always call [Client.Close], even
// after the session has ended, to release the connection. A nil *Client
// (from a failed [Dial]) is a session that ended before it began: its
// methods return [ErrNoClient], an empty screen, or a closed Done channel,
// and never panic.
type Client struct {
	conn  *gossh.Client
	sess  *gossh.Session
	stdin io.Writer

	// writeMu serialises writes to stdin so that a key sent by Send and a
	// query reply from the emulator never interleave.
	writeMu sync.Mutex

	opts Options

	mu       sync.Mutex // guards emu, out, received and changed
	emu      *vt.Emulator
	out      []byte
	received int64
	changed  chan struct{} // closed and replaced whenever the screen may have changed
	title    string        // the window title the program set last (OSC 0 or 2)

	done    chan struct{} // closed once the session has ended and all its output is in
	waitErr error         // the session's Wait result, written before done is closed

	wg        sync.WaitGroup // the reply forwarder and the session waiter
	closeOnce sync.Once
	closeErr  error
}

// Dial connects to the SSH server at addr ("host:port"), authenticates as
// o.User with the public key of key (after the keys of o.Offer), accepts any host key, requests a PTY
// (unless o.NoPTY) and starts a shell, or o.Command when it is set.
func Dial(addr string, key gossh.Signer, o Options) (*Client, error) {
	o = o.withDefaults()
	cfg := &gossh.ClientConfig{
		User:            o.User,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(append(slices.Clone(o.Offer), key)...)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), //nolint:gosec // test client for our own server
	}
	nc, err := net.DialTimeout("tcp", addr, o.DialTimeout)
	if err != nil {
		return nil, fmt.Errorf("sshtest: dial %s: %w", addr, err)
	}
	// The deadline covers the handshake and the session setup; it is
	// lifted once the session has started.
	if err := nc.SetDeadline(time.Now().Add(o.DialTimeout)); err != nil {
		_ = nc.Close()
		return nil, fmt.Errorf("sshtest: dial %s: %w", addr, err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(nc, addr, cfg)
	if err != nil {
		_ = nc.Close()
		return nil, fmt.Errorf("sshtest: handshake with %s: %w", addr, err)
	}
	conn := gossh.NewClient(cc, chans, reqs)
	c, err := start(conn, o)
	if err != nil {
		_ = conn.Close()
		_ = conn.Wait()
		return nil, fmt.Errorf("sshtest: start session on %s: %w", addr, err)
	}
	if err := nc.SetDeadline(time.Time{}); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("sshtest: clear deadline on %s: %w", addr, err)
	}
	return c, nil
}

// start opens the session on conn, wires it to a fresh emulator and starts
// the shell or command. On error the caller closes conn.
func start(conn *gossh.Client, o Options) (*Client, error) {
	sess, err := conn.NewSession()
	if err != nil {
		return nil, err
	}
	c := &Client{
		opts:    o,
		conn:    conn,
		sess:    sess,
		emu:     vt.NewEmulator(o.Width, o.Height),
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	// Called from emu.Write, which runs under c.mu.
	c.emu.SetCallbacks(vt.Callbacks{Title: func(t string) { c.title = t }})
	for _, k := range slices.Sorted(maps.Keys(o.Env)) {
		if err := sess.Setenv(k, o.Env[k]); err != nil {
			return nil, fmt.Errorf("setenv %s: %w", k, err)
		}
	}
	if !o.NoPTY {
		rows, cols := o.Height, o.Width
		if o.Claim != nil {
			rows, cols = o.Claim.Rows, o.Claim.Cols
		}
		if err := sess.RequestPty(o.Term, rows, cols, gossh.TerminalModes{}); err != nil {
			return nil, fmt.Errorf("pty-req: %w", err)
		}
	}
	if c.stdin, err = sess.StdinPipe(); err != nil {
		return nil, err
	}
	sess.Stdout = (*screenWriter)(c)
	sess.Stderr = (*screenWriter)(c) // a terminal shows both streams

	// The forwarder must run before the program starts: an emulator that
	// answers a query blocks until its answer has been read.
	c.wg.Add(1)
	go c.forwardReplies()

	if o.Command != "" {
		err = sess.Start(o.Command)
	} else {
		err = sess.Shell()
	}
	if err != nil {
		c.closeReplies()
		c.wg.Wait()
		return nil, err
	}

	c.wg.Add(1)
	go c.waitSession()
	return c, nil
}

// waitSession records how the session ended and closes done. gossh's Wait
// returns only after all stdout and stderr have been copied into the
// emulator, so a closed done means the screen is final.
func (c *Client) waitSession() {
	defer c.wg.Done()
	c.waitErr = c.sess.Wait()
	c.closeReplies()
	close(c.done)
	c.mu.Lock()
	c.notifyLocked()
	c.mu.Unlock()
}

// Send writes s to the session's standard input unchanged: "j", "\r" for
// Enter, "\x1b[A" for the Up arrow, "\x03" for Ctrl-C.
func (c *Client) Send(s string) error {
	if c == nil {
		return ErrNoClient
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := io.WriteString(c.stdin, s); err != nil {
		return fmt.Errorf("sshtest: send %q: %w", s, err)
	}
	return nil
}

// CloseInput ends the session's standard input (an SSH EOF), as a client
// whose input has run out does (ssh -tt host < file): nothing more can be
// sent, the emulator's query replies included; output still arrives.
func (c *Client) CloseInput() error {
	if c == nil {
		return ErrNoClient
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if cl, ok := c.stdin.(io.Closer); ok {
		return cl.Close()
	}
	return nil
}

// Resize resizes the emulated screen to w columns by h rows and then sends
// a window-change request, in that order, as a real terminal does.
func (c *Client) Resize(w, h int) error {
	if c == nil {
		return ErrNoClient
	}
	c.mu.Lock()
	c.emu.Resize(w, h)
	c.notifyLocked()
	c.mu.Unlock()
	if err := c.sess.WindowChange(h, w); err != nil {
		return fmt.Errorf("sshtest: window-change %dx%d: %w", w, h, err)
	}
	return nil
}

// WindowChange sends a window-change request for w columns by h rows and
// leaves the emulated screen as it is: a client that claims a size its
// terminal is not, as [Options.Claim] does in the pty-req. A terminal
// that changes size calls [Client.Resize].
func (c *Client) WindowChange(w, h int) error {
	if c == nil {
		return ErrNoClient
	}
	if err := c.sess.WindowChange(h, w); err != nil {
		return fmt.Errorf("sshtest: window-change %dx%d: %w", w, h, err)
	}
	return nil
}

// Output returns a copy of every byte received from the session so far,
// stdout and stderr in arrival order, escape sequences included. The client
// keeps all of it for the life of the session, so len(Output()) is also the
// byte count.
func (c *Client) Output() []byte {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.out)
}

// BytesReceived returns how many bytes the session has sent so far.
func (c *Client) BytesReceived() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.received
}

// LocalAddr returns the client's end of the TCP connection: the address a
// server records for this client (directly, or from the PROXY header a
// balancer in between sends), so a test can find which server took it;
// nil for a nil *Client.
func (c *Client) LocalAddr() net.Addr {
	if c == nil {
		return nil
	}
	return c.conn.LocalAddr()
}

// Done returns a channel that is closed when the session has ended and all
// of its output has been received (at once for a nil *Client).
func (c *Client) Done() <-chan struct{} {
	if c == nil {
		return ended
	}
	return c.done
}

// Wait blocks until the session ends and returns how it ended, with the
// semantics of [gossh.Session.Wait]: nil for exit status 0, a
// *[gossh.ExitError] for another status or a signal, and a
// *[gossh.ExitMissingError] when the connection was closed without a status
// (for instance by [Client.Close]); [ErrNoClient] for a nil *Client.
func (c *Client) Wait() error {
	if c == nil {
		return ErrNoClient
	}
	<-c.done
	return c.waitErr
}

// ExitStatus returns the session's exit status once it has ended: 0 on
// success, the remote status otherwise, and -1 while the session is still
// running or when it ended without a status (or never began: a nil
// *Client).
func (c *Client) ExitStatus() int {
	if c == nil {
		return -1
	}
	select {
	case <-c.done:
	default:
		return -1
	}
	var exit *gossh.ExitError
	switch {
	case c.waitErr == nil:
		return 0
	case errors.As(c.waitErr, &exit):
		return exit.ExitStatus()
	default:
		return -1
	}
}

// Close closes the session and the connection and waits for every goroutine
// the client started to finish. It is idempotent; the screen and output stay
// readable afterwards. Closing a nil *Client does nothing.
func (c *Client) Close() error {
	if c == nil {
		return nil
	}
	c.closeOnce.Do(func() {
		_ = c.sess.Close() // io.EOF when the session already ended
		if err := c.conn.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			c.closeErr = fmt.Errorf("sshtest: close: %w", err)
		}
		_ = c.conn.Wait() // the transport's own goroutines have exited
		c.wg.Wait()
	})
	return c.closeErr
}
