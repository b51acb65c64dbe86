// The host's settings: one Config, its defaults and its Validate.
package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"charm.land/log/v2"
)

// Config is what a host sets. cmd/grotto fills it from defaults, then the
// environment, then flags, and calls Validate; New fills the zero fields
// that have a default (withDefaults) and validates again, so a test may set
// only what it needs.
type Config struct {
	Listen    string // TCP address, host:port, e.g. ":23234"
	DataDir   string // holds the database (grotto.db) and the host key (host_ed25519); Validate makes it absolute
	AdminKeys string // authorized_keys file naming admins; "" for none; Validate makes it absolute
	// Logger receives the server's log; nil means stderr.
	Logger *log.Logger
	// NewSeed, if set, seeds every new game (tests use it); nil means random.
	NewSeed func() uint64
	// Limits are the abuse limits; each zero field that has a default gets
	// it (see Limits.withDefaults).
	Limits Limits
	// FPS is the most frames a session draws per second, 1 to 120 (Bubble
	// Tea's renderer ticks at this rate even when idle); 0 means DefaultFPS.
	FPS int
	// NoJournal saves games only on level changes, on leaving and every
	// 100 turns instead of making every turn durable (see tui.Player).
	NoJournal bool
	// Pprof is the address of Go's profiler, served by cmd/grotto, not by
	// the server; "" for none. It must be on loopback (127.0.0.1, ::1 or
	// localhost): the profiler shows memory and must not face players.
	Pprof string
}

// DefaultFPS is the frame rate of a session: a key is answered within one
// frame (33 ms), and 2,000 idle sessions tick half as often as at Bubble
// Tea's default 60.
const DefaultFPS = 30

// MaxFPS is the highest frame rate a host may set.
const MaxFPS = 120

// withDefaults returns c with each zero field that has a default set to
// it: the logger, the frame rate, and the limits field by field.
func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = log.New(os.Stderr)
	}
	if c.FPS == 0 {
		c.FPS = DefaultFPS
	}
	c.Limits = c.Limits.withDefaults()
	return c
}

// Validate makes DataDir and AdminKeys absolute and returns an error saying
// what is wrong, naming the flag that sets it: an empty or malformed listen
// address, an empty data dir, a frame rate outside 1 to MaxFPS, a limit out
// of its range (Limits.validate), or a --pprof address that is not on
// loopback. It reads no file: a missing admin-keys file is New's error.
func (c *Config) Validate() error {
	if c.Listen == "" {
		return errors.New("--listen must not be empty")
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("--listen %q is not host:port (e.g. :23234): %w", c.Listen, err)
	}
	if c.DataDir == "" {
		return errors.New("--data must not be empty")
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return fmt.Errorf("--data %s: %w", c.DataDir, err)
	}
	c.DataDir = abs
	if c.AdminKeys != "" {
		if c.AdminKeys, err = filepath.Abs(c.AdminKeys); err != nil {
			return fmt.Errorf("--admin-keys: %w", err)
		}
	}
	if c.FPS < 1 || c.FPS > MaxFPS {
		return fmt.Errorf("--fps must be between 1 and %d, not %d", MaxFPS, c.FPS)
	}
	if err := c.Limits.validate(); err != nil {
		return err
	}
	if c.Pprof != "" {
		host, _, err := net.SplitHostPort(c.Pprof)
		if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
			return fmt.Errorf("--pprof %q must be a loopback address, e.g. 127.0.0.1:6060", c.Pprof)
		}
	}
	return nil
}
