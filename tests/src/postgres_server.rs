//! A real PostgreSQL server for the call store's tests: `initdb` into a temporary directory,
//! started on loopback on a free port, stopped and removed when dropped. Run as the `postgres`
//! user when the tests run as root (PostgreSQL refuses to run as root). The binaries are found
//! through `PG_BIN`, `pg_config --bindir` or `/usr/lib/postgresql/<version>/bin`; `.ci/run`
//! installs them from the distribution's packages. When something is missing, `start` panics
//! naming it.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A running server (see the module docs).
pub struct PostgresServer {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// Where the server binaries are, or what is missing.
fn find_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("PG_BIN") {
        return PathBuf::from(bin);
    }
    if let Ok(output) = Command::new("pg_config").arg("--bindir").output()
        && output.status.success()
    {
        let bin = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if bin.join("initdb").exists() {
            return bin;
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path().join("bin"))
                .filter(|bin| bin.join("initdb").exists())
                .collect()
        })
        .unwrap_or_default();
    versions.sort();
    versions.pop().unwrap_or_else(|| {
        panic!(
            "PostgreSQL server binaries (initdb, pg_ctl) not found: set PG_BIN, or install the \
             distribution's `postgresql` package (`apt-get install -y postgresql`, as .ci/run does)"
        )
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    listener.local_addr().expect("its address").port()
}

impl PostgresServer {
    /// Creates a cluster in a new temporary directory and starts it (see the module docs).
    pub fn start() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let bin = find_bin();
        let as_postgres = is_root();
        let dir = std::env::temp_dir().join(format!(
            "dsh-tools-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the server's temporary directory");
        let server = Self {
            bin,
            dir,
            port: free_port(),
            as_postgres,
        };
        if as_postgres {
            let chown = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&server.dir)
                .output()
                .expect("chown (coreutils)");
            assert!(
                chown.status.success(),
                "running as root, the tests run PostgreSQL as the `postgres` user, which the \
                 `postgresql` package creates: chown failed: {}",
                String::from_utf8_lossy(&chown.stderr)
            );
        }
        let data = server.dir.join("data");
        server.run(
            "initdb",
            &[
                "-D",
                path(&data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            server.port,
            path(&server.dir)
        );
        let log = server.dir.join("server.log");
        server.run(
            "pg_ctl",
            &[
                "start",
                "-w",
                "-t",
                "60",
                "-D",
                path(&data),
                "-l",
                path(&log),
                "-o",
                &options,
            ],
        );
        server
    }

    fn run(&self, program: &str, args: &[&str]) -> Output {
        let binary = self.bin.join(program);
        let output = if self.as_postgres {
            Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .arg(&binary)
                .args(args)
                .output()
        } else {
            Command::new(&binary).args(args).output()
        }
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", binary.display()));
        assert!(
            output.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// The connection string of the server's `postgres` database.
    pub fn config(&self) -> String {
        format!(
            "host=127.0.0.1 port={} user=postgres dbname=postgres",
            self.port
        )
    }

    /// Creates a database `name` and answers its connection string (a fresh store each).
    pub fn database(&self, name: &str) -> String {
        self.run(
            "createdb",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
                name,
            ],
        );
        format!(
            "host=127.0.0.1 port={} user=postgres dbname={name}",
            self.port
        )
    }
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let binary = self.bin.join("pg_ctl");
        let args = ["stop", "-w", "-m", "immediate", "-D", path(&data)];
        let _ = if self.as_postgres {
            Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .arg(&binary)
                .args(args)
                .output()
        } else {
            Command::new(&binary).args(args).output()
        };
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
