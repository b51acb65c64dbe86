package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's CPU times: 100 on
// Linux everywhere this runs.
const clockTicks = 100

// cpuSeconds returns the user+system CPU time pid has used.
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: short", pid)
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / clockTicks, nil
}

// rssBytes returns pid's resident set size.
func rssBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmRSS", pid)
}

// cpuMeter measures a process's CPU use over an interval.
type cpuMeter struct {
	pid   int
	cpu0  float64
	start time.Time
}

func startCPU(pid int) cpuMeter {
	c, _ := cpuSeconds(pid)
	return cpuMeter{pid: pid, cpu0: c, start: time.Now()}
}

// stop returns CPU seconds used and wall seconds elapsed since start.
func (m cpuMeter) stop() (cpu, wall float64) {
	c, _ := cpuSeconds(m.pid)
	return c - m.cpu0, time.Since(m.start).Seconds()
}
