// conn.h - a class with all three access sections, default member
// initializers and two constructors (one here, one in conn.cc): what
// tests/e2e/cxxpatch.sh patches.
#ifndef CONN_H
#define CONN_H

namespace net {

class Conn {
public:
    Conn() : open_(false), count_(0), fd_(-1) {}
    explicit Conn(int fd);
    int fd() const { return fd_; }
    static int instances;
    void print() const;

protected:
    bool open_ = true;   // whether the peer is connected
    double rate_{1.5};

private:
    char tag_ = 'c';
    long count_;
    struct Inner {
        int a;
    };
    friend class Server;
    using Size = long;
    int fd_;
    short port_ = 80;
};

}  // namespace net

#endif
