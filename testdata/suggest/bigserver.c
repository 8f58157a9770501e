/*
 * bigserver.c - a server's global state, modelled on Redis 7.0's struct
 * redisServer: about 300 members in commented sections, pointers and
 * 64-bit counters mixed with ints, so most sections leave a 4-byte hole
 * after an int that precedes a pointer; a few char[41] run ids, small int
 * arrays and a socket-descriptor struct.  suggest on it must reach the
 * smallest size by pairing holes (few moves), not by re-sorting the
 * struct.  (Generated once from a seeded mix; the names mean nothing.)
 */
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct bs_list;
struct bs_dict;

struct bs_fds {
	int fd[16];
	int count;
};

struct bigserver {
	/* Bind verbosity pipe */
	int module_lazyfree;
	long long hash_reads_umask;
	int verbosity_hz_sentinel;
	unsigned int misses_loading_config;
	int jemalloc_loading_hash;
	int fd_jemalloc;
	void * cron_file;
	off_t keys_priority;
	double io_replication_socket;
	pid_t lazyfree_bits;

	/* Loops threshold protected */
	struct bs_dict * protected_fsync;
	unsigned int threads_socket[8];
	int loops_mode_stream;
	unsigned int list_max;
	struct bs_list * fd_enabled;
	long long backlog_bits;
	unsigned long port_replication_bind;
	void * cluster_debug_pause;
	int backlog_mode_misses;
	unsigned int umask_unix_protected;
	int keyspace_level;
	unsigned int incremental_type;
	time_t max_socket;
	pid_t timeout_rewrite_threads;

	/* Dynamic memory level */
	int priority_events;
	long long save_replication;
	pid_t save_node_fsync;
	int perm_backlog_hash;
	long long config_latency;
	unsigned long rehashing_master;
	struct bs_dict * evicted_perm_running;
	pid_t evicted_enabled;
	unsigned long table_announce;
	int tracking_defrag_announce;

	/* Socket misses save */
	char time_rewrite_expired[41];
	int loading_stream;
	unsigned int cmd_loading_threshold;
	unsigned long bg_file;
	pid_t aof_sentinel_verbosity;
	long long threads_node;
	int fsync_cron;

	/* Daemonize port arch */
	void * hz_stream;
	time_t io_tracking;
	int hz_dynamic[2];
	int log_pubsub;
	double save_debug;
	unsigned long master_io;
	struct bs_list * jemalloc_memory_backlog;
	pid_t monitor_async;
	pid_t monitor_enabled;

	/* List port aof */
	size_t config_verbosity;
	int level_sentinel;
	long long timeout_type_bind;
	int unix_peak_port;
	time_t cmd_stream_bytes;
	pid_t evicted_maxclients;
	off_t shutdown_port;
	unsigned long value_backlog;
	off_t rewrite_pid_pipe;
	size_t state_time[4];
	int state_timeout;
	int backlog_lazyfree;

	/* Tracking node arch */
	int time_loading_latency;
	struct bs_fds evicted_socket;
	time_t protected_node_maxclients;
	void * tcp_keys_repl;
	int mode_type_slave;
	pid_t time_slave_save;
	struct bs_list * misses_level;
	unsigned int shutdown_stream_io;
	char * events_rdb_io;

	/* Backlog perm keys */
	int entries_rewrite_misses;
	int list_pipe;
	pid_t events_rdb;
	int entries_flags_events;
	char * socket_pid;
	int master_loops;

	/* Lazyfree pipe aof */
	char jemalloc_protected[41];
	unsigned int io_hash;
	int max_save_hz;
	size_t io_cluster;
	size_t events_module;

	/* Events stat keys */
	struct bs_list * stat_fsync;
	struct bs_list * fsync_flags;
	void * misses_cron;
	char loading_evicted[256];
	double unix_evicted;
	int arch_module_value;
	void * cron_node_bind;
	struct bs_dict * hash_stream;
	unsigned int dynamic_sentinel_async;

	/* Cron backlog bind */
	long long protected_hits_dynamic;
	void * tcp_active_type;
	pid_t acl_rewrite;
	unsigned int shutdown_repl_io;
	int bytes_umask_list[3];

	/* Pubsub state pipe */
	off_t events_protected;
	int log_async_cluster;
	pid_t unix_sentinel_file;
	pid_t events_announce;
	struct bs_dict * dynamic_stat;
	void * debug_protected_acl;
	int active_timeout_reads;
	int threads_umask_table;
	int rewrite_loops;
	double misses_protected_daemonize;
	void * jemalloc_events;
	long long pause_lazyfree;
	int aof_active;

	/* Mode set bg */
	void * master_save;
	pid_t misses_reads;
	int priority_debug[2];
	int list_running;
	off_t evicted_hz;
	off_t stream_evicted_node;
	double daemonize_level;
	int tcp_threshold_backlog;
	unsigned int entries_misses_keys;
	char protected_announce[41];

	/* Bytes bind table */
	int entries_log_stream;
	int rewrite_hz;
	off_t bg_timeout;
	off_t defrag_pubsub_verbosity;
	unsigned long port_bg;
	struct bs_fds enabled_fd;
	unsigned long sentinel_priority;
	pid_t dynamic_max_latency;
	struct bs_dict * rewrite_keyspace_max;

	/* Loading io pause */
	pid_t latency_mode;
	off_t state_enabled;
	off_t monitor_tcp;
	long long pause_repl_peak;
	int defrag_time;
	int evicted_max_hits;
	int log_protected;
	long long timeout_fsync_tracking;
	int state_cmd;
	time_t rehashing_hz;

	/* Events loops pubsub */
	unsigned int hash_threshold_port;
	int max_repl;
	double expired_incremental;
	void * loops_bytes_expired;
	int zset_tracking;
	struct bs_dict * max_incremental_threshold;

	/* Tcp list time */
	int tracking_threshold;
	struct bs_fds level_debug;
	int rewrite_running_misses;
	int timeout_dynamic;
	int peak_hash_loops;
	void * backlog_incremental_config;
	int acl_events_jemalloc;
	int shutdown_stream;
	off_t umask_stream;
	int hz_timeout_bits;
	int priority_rewrite_lazyfree;
	int memory_hits;
	char * mode_tracking;

	/* Peak table bits */
	char * unix_events;
	char io_repl_port[41];
	pid_t bind_arch;
	int file_rehashing;
	int repl_module_table;
	char * defrag_level;
	char * node_umask;
	off_t threshold_cmd;

	/* Log type fsync */
	double port_events_max;
	int enabled_dynamic;
	time_t max_bind;
	pid_t max_tracking;
	int debug_pipe;
	int io_bg;
	pid_t set_cluster_level;
	off_t reads_peak;
	void * jemalloc_save;
	long long config_threads_stat;
	int rehashing_level_active;

	/* Zset bytes hits */
	struct bs_list * backlog_hash;
	double master_value_pipe;
	unsigned int sentinel_rehashing;
	off_t max_active_entries;
	char * backlog_io;
	int flags_port;
	struct bs_list * verbosity_value_config;
	double hz_incremental_entries;
	unsigned int backlog_keys;
	size_t cmd_fsync;

	/* Peak pid active */
	long long flags_aof;
	void * set_running_acl;
	int set_cron;
	double active_announce;
	pid_t table_level;
	unsigned long events_acl;
	int slave_table_debug;
	int max_fd;
	pid_t config_maxclients_tracking;
	pid_t max_stream_node;
	unsigned long sentinel_bytes;
	int pubsub_protected_arch;
	int shutdown_rdb_fsync;
	long long expired_child_level;

	/* Hash table child */
	int async_list;
	int defrag_flags;
	unsigned int sentinel_time;
	off_t incremental_rdb_bytes;
	time_t latency_priority;
	unsigned int monitor_arch;
	pid_t node_list_enabled;
	unsigned int save_replication_jemalloc;
	struct bs_list * rdb_debug;
	int tracking_umask_entries;

	/* Shutdown acl cron */
	pid_t flags_reads;
	int loops_evicted;
	int pause_verbosity;
	unsigned long hz_bind_mode;
	int incremental_pid_bind;
	long long pipe_file;
	pid_t perm_debug_cron;
	pid_t backlog_table;
	unsigned long monitor_latency;
	unsigned int acl_keys_hash;
	int threshold_loops;
	size_t io_replication;
	int master_maxclients;
	time_t monitor_type_async;

	/* Flags table child */
	void * stream_state;
	struct bs_list * protected_fd;
	unsigned long cmd_mode;
	size_t enabled_defrag;
	double lazyfree_hz_defrag;
	struct bs_dict * zset_port;

	/* Slave cmd max */
	off_t level_state;
	time_t save_backlog;
	unsigned long mode_loops_slave;
	struct bs_dict * events_enabled;
	int priority_stat_mode;

	/* Type io log */
	struct bs_dict * state_jemalloc;
	int debug_acl_events;
	void * shutdown_module;
	int sentinel_debug;
	int loading_latency;
	long long set_state;
	int flags_io_bytes;
	unsigned int child_bind;
	double lazyfree_arch_evicted;
	int sentinel_pause;

	/* Debug bits unix */
	time_t lazyfree_port;
	pid_t io_perm;
	long long list_rewrite_unix;
	long long reads_pid_rehashing;
	int bind_list;
	int tracking_bind;

	/* Bytes defrag tracking */
	int fsync_priority;
	char * replication_keyspace;
	pid_t peak_repl_threshold;
	struct bs_list * verbosity_mode;
	int lazyfree_daemonize_module;
	long long expired_reads_timeout;
	void * daemonize_hits;
	int io_keyspace;
	time_t memory_reads;
	int config_perm_acl;
	int bytes_evicted;
	int threshold_rehashing;
	time_t stream_fd_umask;
	long long save_slave_peak;

	/* Loading entries max */
	unsigned long bits_debug_memory;
	struct bs_list * dynamic_hash;
	int pause_master;
	int keyspace_mode;
	char * events_zset;
	time_t sentinel_module;
	struct bs_list * tracking_jemalloc;
	pid_t bind_pubsub;
	void * pipe_arch_pid;
	double backlog_running;

	/* Dynamic pubsub misses */
	int io_loops_repl;
	int jemalloc_keys;
	int cron_port;
	int bg_child;

	/* Cmd repl zset */
	pid_t monitor_time;
	int tcp_loops_peak;
	int list_cmd;
	off_t threads_priority_incremental;
	unsigned int rdb_port_misses;
	time_t fsync_umask;
	long long socket_hz_protected;
	int max_daemonize;
	int zset_arch;
	void * running_evicted;

	/* Rdb entries level */
	int port_mode_keyspace;
	struct bs_list * repl_timeout_lazyfree;
	int aof_node;
	struct bs_dict * threshold_lazyfree;

	/* Events enabled rehashing */
	int misses_running;
	int shutdown_type_max;
	pid_t hz_zset_node;
	struct bs_list * lazyfree_list;
	int zset_repl;
	int repl_sentinel;
	pid_t io_stat_bits;
	unsigned int node_stream;
	int cron_config;
	int max_arch;
	long long verbosity_fsync;
	pid_t bind_keys;
	char * stat_list_flags;
	int hash_master;
};

struct bigserver bigserver;
