package server

import (
	"strings"
	"testing"
)

func TestProxyProtocolFromTakesRangesAndAddressesAndSaysWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		list []string
		want string // in the error; "" for valid
	}{
		{nil, ""},
		{[]string{"10.0.0.0/8"}, ""},
		{[]string{"10.0.0.5", " 192.168.1.0/24 ", "fd00::/64", "::1"}, ""},
		{[]string{"10.0.0.0/8", ""}, "has an empty entry"},
		{[]string{"10.0.0.300/24"}, `"10.0.0.300/24" is not a CIDR range`},
		{[]string{"10.0.0.0/33"}, "is not a CIDR range"},
		{[]string{"10.0.0.5/24"}, "write 10.0.0.0/24 for the range, or 10.0.0.5 alone"},
		{[]string{"haproxy.local"}, `"haproxy.local" is not an IP address or a CIDR range`},
		{[]string{"fe80::1%eth0"}, "is not an IP address"},
	} {
		c := Config{Listen: ":23234", DataDir: t.TempDir(), ProxyProtocolFrom: tc.list}.withDefaults()
		err := c.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q refused: %v", tc.list, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "--proxy-protocol-from ") || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want an error naming --proxy-protocol-from with %q", tc.list, err, tc.want)
		}
	}
}
