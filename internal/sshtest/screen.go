// The emulated terminal: feeding session output to the vt emulator, sending
// its query replies back, reading the screen and waiting for it to change.

package sshtest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// screenWriter is the session's stdout and stderr: it records the bytes and
// plays them into the emulator.
type screenWriter Client

func (w *screenWriter) Write(p []byte) (int, error) {
	c := (*Client)(w)
	if c.opts.OnBytes != nil {
		c.opts.OnBytes(len(p))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.received += int64(len(p))
	if !c.opts.DiscardOutput {
		c.out = append(c.out, p...)
	}
	// When p holds a query, Write blocks until forwardReplies has read the
	// emulator's answer. forwardReplies never takes c.mu, so this cannot
	// deadlock.
	_, _ = c.emu.Write(p)
	c.notifyLocked()
	return len(p), nil
}

// notifyLocked wakes every WaitFor. c.mu must be held.
func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// forwardReplies sends what the emulator writes on its input side (answers
// to DA1, DECRQM, OSC 10/11 colour queries, cursor position reports) to the
// session's stdin, as a terminal does. It returns when closeReplies closes
// the emulator's input pipe.
//
// Emulator.Read touches only the pipe and a flag that is never set (the
// emulator itself is never closed), so it is safe to call without c.mu.
func (c *Client) forwardReplies() {
	defer c.wg.Done()
	buf := make([]byte, 4096)
	for {
		n, err := c.emu.Read(buf)
		if n > 0 {
			// Fails only once the session is gone, when nobody is
			// waiting for the answer any more.
			_ = c.Send(string(buf[:n]))
		}
		if err != nil {
			return
		}
	}
}

// closeReplies ends forwardReplies. Closing the pipe rather than the
// emulator keeps the emulator's unsynchronised closed flag untouched, and
// makes any later reply fail fast instead of blocking a Write.
func (c *Client) closeReplies() {
	if pw, ok := c.emu.InputPipe().(io.Closer); ok {
		_ = pw.Close()
	}
}

// Screen returns the emulated screen as plain text: one line per row (so
// exactly the terminal height's worth of lines), joined by "\n", with
// trailing spaces trimmed and styles dropped. It shows the alternate screen
// while a program uses it. A nil *Client's screen is "".
func (c *Client) Screen() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.emu.String()
}

// Title returns the window title the program set last (OSC 0 or 2), ""
// before any: what a terminal shows in its title bar or tab.
func (c *Client) Title() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.title
}

// WaitFor calls ok with the screen now and after every change, until ok
// returns true, ctx is done or the session ends. It returns the last screen
// it saw. On failure the error wraps ctx.Err() or [ErrSessionEnded] and its
// message includes that screen, so a failing test shows what was displayed.
func (c *Client) WaitFor(ctx context.Context, ok func(screen string) bool) (string, error) {
	return c.waitFor(ctx, "condition", ok)
}

// WaitForText waits up to timeout for the screen to contain substr; see
// [Client.WaitFor].
func (c *Client) WaitForText(timeout time.Duration, substr string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.waitFor(ctx, fmt.Sprintf("%q", substr), func(s string) bool {
		return strings.Contains(s, substr)
	})
}

func (c *Client) waitFor(ctx context.Context, what string, ok func(string) bool) (string, error) {
	if c == nil {
		return "", waitError(what, ErrNoClient, "")
	}
	for {
		c.mu.Lock()
		screen := c.emu.String()
		changed := c.changed
		// done is closed only after the last output was written under
		// c.mu, so if it is closed now this screen is final.
		ended := isClosed(c.done)
		c.mu.Unlock()

		if ok(screen) {
			return screen, nil
		}
		if ended {
			return screen, waitError(what, ErrSessionEnded, screen)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return screen, waitError(what, ctx.Err(), screen)
		}
	}
}

func waitError(what string, cause error, screen string) error {
	return fmt.Errorf("sshtest: waiting for %s: %w; screen:\n%s", what, cause, screen)
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
