//! Accounts: the rules for an email, a password and a role, shared by `prospector user add` and the
//! admin's Users screen so both accept and refuse the same things.

/// Shortest password accepted for an account.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password accepted: the sign-in refuses longer ones before hashing, so an account with a
/// longer password could never sign in.
pub const MAX_PASSWORD_CHARS: usize = 1024;
/// Longest email accepted (RFC 5321's path limit).
pub const MAX_EMAIL_CHARS: usize = 254;

pub const INVALID_EMAIL: &str = "Enter a valid email address";
pub const DUPLICATE_EMAIL: &str = "A user with this email already exists";
pub const CANNOT_DISABLE_SELF: &str = "You cannot disable your own account";
pub const CANNOT_DEMOTE_SELF: &str = "You cannot remove your own admin rights";

/// An already normalized (trimmed, lower-case) email that an account may have.
pub fn email_is_valid(email: &str) -> bool {
    email.chars().count() <= MAX_EMAIL_CHARS
        && !email.chars().any(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'))
}

/// What is wrong with a new password, if anything.
pub fn password_problem(password: &str) -> Option<String> {
    let n = password.chars().count();
    if n < MIN_PASSWORD_CHARS {
        Some(format!(
            "Password must be at least {MIN_PASSWORD_CHARS} characters"
        ))
    } else if n > MAX_PASSWORD_CHARS {
        Some(format!(
            "Password must be at most {MAX_PASSWORD_CHARS} characters"
        ))
    } else {
        None
    }
}

/// An account's role: an admin may sign in at the admin login and use the admin screens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    User,
}

impl Role {
    pub const NAMES: &[&str] = &["admin", "user"];

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "admin" => Some(Self::Admin),
            "user" => Some(Self::User),
            _ => None,
        }
    }

    pub fn of(is_admin: bool) -> Self {
        if is_admin { Self::Admin } else { Self::User }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::User => "user",
        }
    }
}

/// An admin changing their own account may not lock themselves out: neither disable it nor give up
/// the admin role (another admin can).
pub fn self_change_problem(
    is_self: bool,
    disable: bool,
    role: Option<Role>,
) -> Option<&'static str> {
    if !is_self {
        None
    } else if disable {
        Some(CANNOT_DISABLE_SELF)
    } else if role == Some(Role::User) {
        Some(CANNOT_DEMOTE_SELF)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_need_a_local_part_and_a_dotted_domain() {
        assert!(email_is_valid("ann@example.com"));
        assert!(!email_is_valid("ann@example"));
        assert!(!email_is_valid("@example.com"));
        assert!(!email_is_valid("ann example.com"));
        assert!(!email_is_valid("ann @example.com"));
        assert!(!email_is_valid(&format!("{}@example.com", "a".repeat(250))));
    }

    #[test]
    fn passwords_are_eight_to_1024_characters() {
        assert!(password_problem("1234567").is_some());
        assert_eq!(password_problem("12345678"), None);
        assert_eq!(password_problem(&"é".repeat(1024)), None);
        assert!(password_problem(&"x".repeat(1025)).is_some());
    }

    #[test]
    fn roles_parse_from_their_names() {
        assert_eq!(Role::parse(" Admin"), Some(Role::Admin));
        assert_eq!(Role::parse("user"), Some(Role::User));
        assert_eq!(Role::parse("owner"), None);
        assert_eq!(Role::of(true).as_str(), "admin");
    }

    #[test]
    fn an_admin_cannot_lock_themselves_out() {
        assert_eq!(
            self_change_problem(true, true, None),
            Some(CANNOT_DISABLE_SELF)
        );
        assert_eq!(
            self_change_problem(true, false, Some(Role::User)),
            Some(CANNOT_DEMOTE_SELF)
        );
        assert_eq!(self_change_problem(true, false, Some(Role::Admin)), None);
        assert_eq!(self_change_problem(false, true, Some(Role::User)), None);
    }
}
