package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestTheCommandPrintsATableRowPerPolicy(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"--seeds", "2", "--policies", "diver,no-items", "--replay", "1"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"| policy | games | wins |", "| diver | 2 |", "| no-items | 2 |", "Deaths by cause",
		"## Measured: the game's targets", "| most deaths by one monster | at most 25% |", "| behaviour | monsters | met |", "| median game | — |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

func TestTheCommandPrintsJSON(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"--seeds", "1", "--policies", "no-items", "--json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var sums []struct {
		Policy   string `json:"policy"`
		Games    int    `json:"games"`
		Measured struct {
			Games      int `json:"games"`
			Behaviours []struct {
				AI string `json:"ai"`
			} `json:"behaviours"`
		} `json:"measured"`
	}
	if err := json.Unmarshal(out.Bytes(), &sums); err != nil || len(sums) != 1 || sums[0].Policy != "no-items" || sums[0].Games != 1 || sums[0].Measured.Games != 1 || len(sums[0].Measured.Behaviours) == 0 {
		t.Fatalf("%v %+v\n%s", err, sums, out.String())
	}
}

func TestBadFlagsSayWhatIsWrong(t *testing.T) {
	for _, args := range [][]string{{"--policies", "reckless"}, {"--seeds", "0"}, {"extra"}} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code != 2 || errs.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs.String())
		}
	}
}
