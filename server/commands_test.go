package server

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/sshcmd"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

// commandsOn serves identify and the commands of a server on db alone
// (wish's testsession), with admin, if not nil, as its only admin.
func commandsOn(t *testing.T, db Database, admin gossh.Signer) string {
	t.Helper()
	s := &Server{log: log.New(io.Discard), store: db, place: placement{live: lobby.NewMemory(nil), nodes: &nodes{}, clock: time.Now}}
	admins := keys.AdminSet{}
	if admin != nil {
		var err error
		if admins, err = keys.ParseAuthorizedKeys(gossh.MarshalAuthorizedKey(admin.PublicKey())); err != nil {
			t.Fatal(err)
		}
	}
	s.policy.admins.Store(&admins)
	s.replays.games = finished.New(db, nil, s.log, s.clock)
	return unit(t, identify, s.commands)
}

func TestCommandsAnswerAsBefore(t *testing.T) {
	db := storetest.TempBolt(t)
	admin := newKey(t)
	addr := commandsOn(t, db, admin)
	if _, err := db.FinishGame("fp-of-ada", store.Score{Name: "ada", Points: 1234, Depth: 3, Turns: 456, Cause: "an orc",
		Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cmd string
		key       gossh.Signer
		status    int
		want      string // in stdout for status 0, in stderr otherwise
	}{
		{"scores lists the table", "scores", nil, 0, "1     ada   1234   3      456    an orc  2026-01-02"},
		{"who says no one plays", "who", nil, 0, "No one is playing."},
		{"an unknown command is named", "dance now", nil, 1, `grotto: unknown command "dance now"; try`},
		{"quarantine is unknown to a player", "quarantine", nil, 1, `unknown command "quarantine"`},
		{"quarantine lists nothing for an admin", "quarantine", admin, 0, "Nothing is quarantined."},
		{"no command goes on to the game", "", nil, 0, reached},
		{"help lists the players' commands", "help", nil, 0, "  replays [NAME]       the finished games kept, with their IDs\n"},
		{"an admin's help lists the host tools", "help", admin, 0, "  kick NAME                     end a player's session, saving the game (admins)\n"},
		{"a wrong count of arguments gets the usage line", "who is here", nil, 2, "grotto: usage: who\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == nil {
				key = newKey(t)
			}
			out, errs, status := run(t, login(t, addr, "x", key), tc.cmd)
			got := out
			if tc.status != 0 {
				got = errs
			}
			if status != tc.status || !strings.Contains(got, tc.want) {
				t.Errorf("%q: status %d, stdout %q, stderr %q; want status %d and %q", tc.cmd, status, out, errs, tc.status, tc.want)
			}
		})
	}
}

// refusingDB is a database whose reads of scores and quarantine fail.
type refusingDB struct{ Database }

func (refusingDB) TopScores(int) ([]store.Score, error) { return nil, errors.New("disk on fire") }
func (refusingDB) Quarantined(string) ([]store.Quarantined, error) {
	return nil, errors.New("disk on fire")
}

func TestACommandWhoseReadFailsSaysSoAndExitsOne(t *testing.T) {
	admin := newKey(t)
	addr := commandsOn(t, refusingDB{storetest.TempBolt(t)}, admin)
	for cmd, want := range map[string]string{
		"scores":     "grotto: the scores cannot be read right now",
		"quarantine": "grotto: the quarantine cannot be read right now",
	} {
		out, errs, status := run(t, login(t, addr, "x", admin), cmd)
		if status != 1 || !strings.Contains(errs, want) || strings.Contains(errs, "fire") {
			t.Errorf("%s failing: status %d, %q %q; want %q and no detail", cmd, status, out, errs, want)
		}
	}
}

// TestEveryCommandGivenTooManyArgumentsAnswersItsUsageLine reads the
// table: each command, typed with one word too many, answers its own
// usage line with status 2 (a player's and an admin's alike), and help
// names it.
func TestEveryCommandGivenTooManyArgumentsAnswersItsUsageLine(t *testing.T) {
	db := storetest.TempBolt(t)
	admin := newKey(t)
	addr := commandsOn(t, db, admin)
	s := &Server{log: log.New(io.Discard), store: db, place: placement{live: lobby.NewMemory(nil), nodes: &nodes{}, clock: time.Now}}
	help, _, _ := run(t, login(t, addr, "x", admin), "help")
	for _, c := range sshcmd.Commands(commandHost{s}) {
		if !strings.Contains(help, "  "+c.Usage()+" ") {
			t.Errorf("help does not name %q:\n%s", c.Usage(), help)
		}
		if c.Max < 0 {
			continue
		}
		words := c.Name + strings.Repeat(" x", c.Max+1)
		_, errs, status := run(t, login(t, addr, "x", admin), words)
		if status != 2 || !strings.HasPrefix(errs, "grotto: usage: "+c.Usage()) {
			t.Errorf("%q: status %d, stderr %q; want 2 and its usage line", words, status, errs)
		}
	}
}
