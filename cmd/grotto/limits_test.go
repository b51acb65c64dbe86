package main

import (
	"bytes"
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
