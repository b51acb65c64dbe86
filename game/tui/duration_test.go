package tui

import (
	"testing"
	"time"
)

func TestDurationsReadAsWords(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{20 * time.Second, "20 seconds"},
		{time.Second, "1 second"},
		{10 * time.Minute, "10 minutes"},
		{30 * time.Minute, "30 minutes"},
		{12 * time.Hour, "12 hours"},
		{90 * time.Minute, "1 hour 30 minutes"},
		{time.Hour + 5*time.Second, "1 hour"},
		{48 * time.Hour, "2 days"},
		{15*time.Second + 400*time.Millisecond, "15 seconds"},
		{0, "less than a second"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
