package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// ErrForbiddenTarget is returned for URLs that resolve to addresses a
// webhook must never reach: link-local and cloud metadata addresses always,
// private and loopback ones unless the operator allows them.
var ErrForbiddenTarget = errors.New("webhook target not allowed")

var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack
	netip.MustParseAddr("fd00:ec2::254"),   // AWS IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

// checkAddr decides whether a connection to addr may be made.
func checkAddr(addr netip.Addr, allowPrivate bool) error {
	addr = addr.Unmap()
	for _, m := range metadataAddrs {
		if addr == m {
			return fmt.Errorf("%w: %s is a cloud metadata address", ErrForbiddenTarget, addr)
		}
	}
	switch {
	case addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast(), addr.IsInterfaceLocalMulticast():
		return fmt.Errorf("%w: %s is link-local", ErrForbiddenTarget, addr)
	case addr.IsUnspecified(), addr.IsMulticast():
		return fmt.Errorf("%w: %s is not a unicast address", ErrForbiddenTarget, addr)
	case (addr.IsPrivate() || addr.IsLoopback()) && !allowPrivate:
		return fmt.Errorf("%w: %s is private or loopback (allowed only when SWITCHYARD_WEBHOOK_ALLOW_PRIVATE is true)", ErrForbiddenTarget, addr)
	}
	return nil
}

// CheckURL validates a webhook URL's form. The address it resolves to is
// checked again at connect time (see dialer), so DNS rebinding cannot slip
// a forbidden address past this check.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return fmt.Errorf("%w: %q is not an absolute http(s) URL", ErrForbiddenTarget, raw)
	}
	return nil
}

// dialer checks every address it connects to.
func dialer(timeout time.Duration, allowPrivate bool) *net.Dialer {
	return &net.Dialer{
		Timeout: timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrForbiddenTarget, address)
			}
			return checkAddr(ap.Addr(), allowPrivate)
		},
	}
}

func dialContext(timeout time.Duration, allowPrivate bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return dialer(timeout, allowPrivate).DialContext
}
