/* A union whose largest member is 60 bytes and whose alignment is 8 (the
 * kernel's nf_conntrack_proto: ip_ct_tcp is 60 bytes, nf_ct_dccp and
 * nf_ct_udp hold 8-byte members): 64 bytes, the last 4 of which no member
 * uses - tail padding by the C rules, reported as such (issue 27 item 7
 * took it for "not padding"). */
#include <stdio.h>
#include <stddef.h>
struct ct_dccp { unsigned char role[2]; unsigned long long handshake_seq; };
struct ct_tcp { unsigned int seen[15]; };
union ct_proto {
	struct ct_dccp dccp;
	struct ct_tcp tcp;
	unsigned int tmpl_padto;
};
union ct_proto ct_proto_v;
int main(void)
{
	printf("size %zu\nlargest %zu\n", sizeof(union ct_proto), sizeof(struct ct_tcp));
	return 0;
}
