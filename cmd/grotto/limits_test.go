package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestConnectionLimitsComeFromFlagsAndVariables(t *testing.T) {
	t.Setenv("GROTTO_MAX_CONNS_PER_ADDR", "7")
	t.Setenv("GROTTO_SESSION_OPEN_TIMEOUT", "5s")
	c, err := parse([]string{"--session-open-timeout", "9s"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.MaxConnsPerAddr != 7 || c.Limits.SessionOpenTimeout != 9*time.Second {
		t.Errorf("limits = %+v", c.Limits)
	}
	if _, err := parse([]string{"--max-conns-per-addr", "-1"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Error("a negative --max-conns-per-addr was accepted")
	}
}

func TestTheWebConnectionBudgetComesFromItsFlagOrVariable(t *testing.T) {
	c, err := parse(nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.MaxHTTPConns != 0 {
		t.Errorf("unset, --http-max-conns = %d, want 0 (from the open-file limit)", c.Limits.MaxHTTPConns)
	}
	t.Setenv("GROTTO_HTTP_MAX_CONNS", "300")
	if c, err = parse(nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Limits.MaxHTTPConns != 300 {
		t.Errorf("GROTTO_HTTP_MAX_CONNS=300: %d, %v", c.Limits.MaxHTTPConns, err)
	}
	if c, err = parse([]string{"--http-max-conns", "40"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Limits.MaxHTTPConns != 40 {
		t.Errorf("--http-max-conns 40 over the variable: %d, %v", c.Limits.MaxHTTPConns, err)
	}
	_, err = parse([]string{"--http-max-conns", "-1"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "--http-max-conns") {
		t.Errorf("a negative --http-max-conns: %v, want an error naming it", err)
	}
}

// The replays' budget comes from --max-replays or GROTTO_MAX_REPLAYS, the
// flag first; unset it is 0 (16 per core, server.Limits).
func TestTheReplaysBudgetComesFromItsFlagOrVariable(t *testing.T) {
	c, err := parse(nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.MaxReplays != 0 {
		t.Errorf("unset, --max-replays = %d, want 0 (16 per core)", c.Limits.MaxReplays)
	}
	t.Setenv("GROTTO_MAX_REPLAYS", "40")
	if c, err = parse(nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Limits.MaxReplays != 40 {
		t.Errorf("GROTTO_MAX_REPLAYS=40: %d, %v", c.Limits.MaxReplays, err)
	}
	if c, err = parse([]string{"--max-replays", "8"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Limits.MaxReplays != 8 {
		t.Errorf("--max-replays 8 over GROTTO_MAX_REPLAYS=40: %d, %v", c.Limits.MaxReplays, err)
	}
}
