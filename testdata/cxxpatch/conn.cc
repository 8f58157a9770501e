// conn.cc - Conn's out-of-line constructor and what prints every member.
#include "conn.h"

#include <cstdio>

namespace net {

int Conn::instances = 0;

Conn::Conn(int fd)
    : open_(true), rate_(2.0), tag_('x'), count_(fd * 2L), fd_(fd), port_(443)
{
    instances++;
}

void Conn::print() const
{
    std::printf("open=%d rate=%g tag=%c count=%ld fd=%d port=%d\n", open_, rate_, tag_,
                count_, fd_, port_);
}

}  // namespace net
