// testdata/newcomer/net.cpp - a C++ struct in a namespace, for
// tests/e2e/newcomer.sh: `-t Conn` must point at net::Conn.
namespace net {
struct Conn {
	char state;
	long id;
};
}  // namespace net

net::Conn g_conn;
