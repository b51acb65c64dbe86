package game

import "testing"

// TestACauseReadsInTheThirdPersonOnSharedTables: score tables wrote "it hit
// you for 5" of another player's death.
func TestACauseReadsInTheThirdPersonOnSharedTables(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"a monster's blow hits them", "killed by an orc on depth 2 (it hit you for 5)", "killed by an orc on depth 2 (it hit them for 5)"},
		{"their own fireball is theirs", "killed by a fireball on depth 4 (your own, for 8)", "killed by a fireball on depth 4 (their own, for 8)"},
		{"a cause with no you is kept", "killed by poison on depth 3 (2 HP a turn)", "killed by poison on depth 3 (2 HP a turn)"},
		{"a word holding you is kept", "killed by a young dragon on depth 9 (it hit you for 12)", "killed by a young dragon on depth 9 (it hit them for 12)"},
		{"an escape is kept", "escaped the grotto", "escaped the grotto"},
		{"nothing stays nothing", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ThirdPerson(c.in); got != c.want {
				t.Errorf("ThirdPerson(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
