//! `prospector seed`: the demo login from `seeds/demo/users.json`. Its password is generated here,
//! never committed, and kept in the data directory so `make run` can show it again.

use std::path::PathBuf;

use anyhow::Context as _;
use jobs::auth::{NewUser, user_create};
use jobs::config::Config;
use jobs::db::Db;
use rand::Rng;
use serde::Deserialize;

const DEMO_USERS: &str = include_str!("../seeds/demo/users.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoUser {
    email: String,
    first_name: String,
    last_name: String,
    admin: bool,
}

pub struct Login {
    pub email: String,
    pub password: String,
}

fn login_file(config: &Config) -> PathBuf {
    config.data_dir.join("demo-login.txt")
}

/// The demo login saved by an earlier seed, if this data directory has one.
pub fn saved_login(config: &Config) -> Option<Login> {
    let text = std::fs::read_to_string(login_file(config)).ok()?;
    let (email, password) = text.trim().split_once(' ')?;
    Some(Login {
        email: email.to_string(),
        password: password.to_string(),
    })
}

/// Seeds an empty database (or any, with `force`). Returns the new demo login, if one was made.
pub async fn run(db: &Db, config: &Config, force: bool) -> anyhow::Result<Option<Login>> {
    if db.user_count().await? > 0 && !force {
        return Ok(None);
    }
    let users: Vec<DemoUser> = serde_json::from_str(DEMO_USERS).context("seeds/demo/users.json")?;
    let mut created = None;
    for u in users {
        if db.user_get_by_email(&u.email).await?.is_some() {
            continue;
        }
        let password: String = rand::rng()
            .sample_iter(rand::distr::Alphanumeric)
            .take(16)
            .map(char::from)
            .collect();
        user_create(
            db,
            NewUser {
                email: &u.email,
                password: &password,
                first_name: Some(&u.first_name),
                last_name: Some(&u.last_name),
                is_admin: u.admin,
            },
        )
        .await?;
        let path = login_file(config);
        std::fs::write(&path, format!("{} {}\n", u.email, password))
            .with_context(|| format!("writing {}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
        created.get_or_insert(Login {
            email: u.email,
            password,
        });
    }
    Ok(created)
}
