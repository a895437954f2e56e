//! Notes and tasks on a company, contact or deal (migration 0031). Both tables hold a polymorphic
//! `(entity_type, entity_id)`; the migration's triggers delete them with their record.

use super::sql::Sql;
use super::*;

/// A record's name by its type and id (`t.entity_type`, `t.entity_id`).
macro_rules! entity_name {
    () => {
        "CASE t.entity_type
             WHEN 'company' THEN (SELECT name FROM companies WHERE id = t.entity_id)
             WHEN 'contact' THEN (SELECT trim(first_name || ' ' || last_name) FROM contacts WHERE id = t.entity_id)
             WHEN 'deal' THEN (SELECT title FROM deals WHERE id = t.entity_id)
         END"
    };
}

macro_rules! note_columns {
    () => {
        concat!(
            "n.id, n.entity_type, n.entity_id, n.body, n.author_id, ",
            user_name!("n.author_id"),
            " AS author, n.created_at"
        )
    };
}

macro_rules! task_columns {
    () => {
        concat!(
            "t.id, t.entity_type, t.entity_id, ",
            entity_name!(),
            " AS entity_name, t.title, t.due_date, t.done, t.done_at, t.assignee_id, ",
            user_name!("t.assignee_id"),
            " AS assignee, t.created_at"
        )
    };
}

/// Open tasks by due date (none last), then done ones by when they were done, newest first.
macro_rules! task_order {
    () => {
        " ORDER BY t.done, CASE WHEN t.done THEN 0 WHEN t.due_date IS NULL THEN 1 ELSE 0 END,
             CASE WHEN t.done THEN NULL ELSE t.due_date END, t.done_at DESC, t.created_at, t.id
         LIMIT ?4"
    };
}

/// At most this many notes or tasks in one list (a record's or a user's).
pub const NOTES_TASKS_LIMIT: i64 = 500;

const NOTE_LIST: Sql = sql!(concat!(
    "SELECT ",
    note_columns!(),
    " FROM notes n WHERE n.entity_type = ?1 AND n.entity_id = ?2
     ORDER BY n.created_at DESC, n.id DESC LIMIT ?3"
));
const NOTE_GET: Sql = sql!(concat!(
    "SELECT ",
    note_columns!(),
    " FROM notes n WHERE n.id = ?1"
));
const NOTE_INSERT: Sql = sql!(
    "INSERT INTO notes (id, entity_type, entity_id, body, author_id, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
);
const NOTE_DELETE: Sql = sql!("DELETE FROM notes WHERE id = ?1");

/// ?3: `open`, `done` or `all`.
const TASKS_OF_RECORD: Sql = sql!(concat!(
    "SELECT ",
    task_columns!(),
    " FROM tasks t WHERE t.entity_type = ?1 AND t.entity_id = ?2
       AND (?3 = 'all' OR t.done = (?3 = 'done'))",
    task_order!()
));
/// ?1: the assignee; ?2 unused (keeps the placeholders of [`TASKS_OF_RECORD`]).
const TASKS_OF_USER: Sql = sql!(concat!(
    "SELECT ",
    task_columns!(),
    " FROM tasks t WHERE t.assignee_id = ?1 AND ?2 = ?2
       AND (?3 = 'all' OR t.done = (?3 = 'done'))",
    task_order!()
));
const TASK_GET: Sql = sql!(concat!(
    "SELECT ",
    task_columns!(),
    " FROM tasks t WHERE t.id = ?1"
));
const TASK_INSERT: Sql = sql!(
    "INSERT INTO tasks (id, entity_type, entity_id, title, due_date, done, assignee_id, created_by,
                        created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, FALSE, ?6, ?6, ?7, ?7)"
);
/// Done and `done_at`/`done_by` change together: set on completing, cleared on reopening.
const TASK_UPDATE: Sql = sql!(
    "UPDATE tasks SET title = ?2, due_date = ?3, done = ?4,
         done_at = CASE WHEN ?4 THEN COALESCE(done_at, ?5) END,
         done_by = CASE WHEN ?4 THEN COALESCE(done_by, ?6) END,
         updated_at = ?5
     WHERE id = ?1"
);
const TASK_DELETE: Sql = sql!("DELETE FROM tasks WHERE id = ?1");
const OPEN_TASKS: Sql =
    sql!("SELECT COUNT(*) FROM tasks WHERE entity_type = ?1 AND entity_id = ?2 AND NOT done");

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NoteRow {
    pub id: String,
    pub entity_type: String,
    pub entity_id: String,
    pub body: String,
    pub author_id: Option<String>,
    /// The author's name (see `user_name!`), when the author still exists.
    pub author: Option<String>,
    pub created_at: i64,
}

pub struct NoteInsert<'a> {
    pub id: &'a str,
    pub entity_type: &'a str,
    pub entity_id: &'a str,
    pub body: &'a str,
    pub author_id: &'a str,
    pub now: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TaskRow {
    pub id: String,
    pub entity_type: String,
    pub entity_id: String,
    pub entity_name: Option<String>,
    pub title: String,
    pub due_date: Option<String>,
    pub done: bool,
    pub done_at: Option<i64>,
    pub assignee_id: Option<String>,
    pub assignee: Option<String>,
    pub created_at: i64,
}

/// Which tasks a list holds: a record's, or a user's across records.
pub enum TaskScope<'a> {
    Record { entity_type: &'a str, id: &'a str },
    Assignee(&'a str),
}

pub struct TaskInsert<'a> {
    pub id: &'a str,
    pub entity_type: &'a str,
    pub entity_id: &'a str,
    pub title: &'a str,
    pub due_date: Option<&'a str>,
    /// The creator, who is also the assignee.
    pub user_id: &'a str,
    pub now: i64,
}

pub struct TaskUpdate<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub due_date: Option<&'a str>,
    pub done: bool,
    pub user_id: &'a str,
    pub now: i64,
}

impl Db {
    /// A record's notes, newest first (at most [`NOTES_TASKS_LIMIT`]).
    pub async fn note_list(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> Result<Vec<NoteRow>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(NOTE_LIST),
            entity_type,
            entity_id,
            NOTES_TASKS_LIMIT
        )
    }
    pub async fn note_get(&self, id: &str) -> Result<Option<NoteRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(NOTE_GET), id)
    }
    pub async fn note_insert(&self, n: &NoteInsert<'_>) -> Result<(), sqlx::Error> {
        exec!(
            self,
            NOTE_INSERT,
            n.id,
            n.entity_type,
            n.entity_id,
            n.body,
            n.author_id,
            n.now
        )
        .map(|_| ())
    }
    /// `false` when there was no such note.
    pub async fn note_delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        exec!(self, NOTE_DELETE, id).map(|n| n > 0)
    }
    /// `status`: `open`, `done` or `all`; ordered as the task list shows them.
    pub async fn task_list(
        &self,
        scope: &TaskScope<'_>,
        status: &str,
    ) -> Result<Vec<TaskRow>, sqlx::Error> {
        let (q, a, b) = match scope {
            TaskScope::Record { entity_type, id } => (TASKS_OF_RECORD, *entity_type, *id),
            TaskScope::Assignee(user) => (TASKS_OF_USER, *user, ""),
        };
        fetch!(
            self,
            fetch_all,
            query_as(q),
            a,
            b,
            status,
            NOTES_TASKS_LIMIT
        )
    }
    pub async fn task_get(&self, id: &str) -> Result<Option<TaskRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(TASK_GET), id)
    }
    pub async fn task_insert(&self, t: &TaskInsert<'_>) -> Result<(), sqlx::Error> {
        exec!(
            self,
            TASK_INSERT,
            t.id,
            t.entity_type,
            t.entity_id,
            t.title,
            t.due_date,
            t.user_id,
            t.now
        )
        .map(|_| ())
    }
    /// `false` when there is no such task.
    pub async fn task_update(&self, t: &TaskUpdate<'_>) -> Result<bool, sqlx::Error> {
        exec!(
            self,
            TASK_UPDATE,
            t.id,
            t.title,
            t.due_date,
            t.done,
            t.now,
            t.user_id
        )
        .map(|n| n > 0)
    }
    /// `false` when there was no such task.
    pub async fn task_delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        exec!(self, TASK_DELETE, id).map(|n| n > 0)
    }
    /// A record's open tasks.
    pub async fn task_open_count(
        &self,
        entity_type: &str,
        entity_id: &str,
    ) -> Result<i64, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_scalar(OPEN_TASKS),
            entity_type,
            entity_id
        )
    }
}
