package tui

// This file: durations in the words a player reads ("10 minutes").

import (
	"fmt"
	"strings"
	"time"
)

// Duration writes d as a player reads it, in its two largest units at
// most, rounded to the second: "20 seconds", "10 minutes", "12 hours",
// "1 hour 30 minutes", "2 days" — never Go's "12h0m0s". Every duration
// in text for players and hosts (goodbyes, notes, command output) goes
// through it; the compact columns of the lists (idle "5m") do not.
func Duration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Second {
		return "less than a second"
	}
	units := []struct {
		size time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}}
	var parts []string
	for _, u := range units {
		n := d / u.size
		if n == 0 {
			if len(parts) > 0 {
				break // "1 hour", not "1 hour 0 minutes 5 seconds"
			}
			continue
		}
		d -= n * u.size
		name := u.name
		if n != 1 {
			name += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, name))
		if len(parts) == 2 {
			break
		}
	}
	return strings.Join(parts, " ")
}
