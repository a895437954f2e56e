//! Bulk inserts for demo data and benchmarks: rows arrive complete (ids, times), many per statement.

use super::*;

#[derive(Debug, Clone, Default)]
pub struct CompanySeed {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub company_type: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub score: i32,
    pub prospect_score: i32,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub growth_rate: Option<f64>,
    pub description: Option<String>,
    pub competitor_alignment: Option<i32>,
    pub discovery_source: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct ContactSeed {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Value,
    pub is_verified: bool,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct DealSeed {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub value: i64,
    pub stage: Option<String>,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub actual_close_date: Option<String>,
    pub contact_id: Option<String>,
    pub company_id: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct MeetingSeed {
    pub id: String,
    pub title: String,
    pub company_id: Option<String>,
    pub contact_id: Option<String>,
    pub scheduled_at: i64,
    pub duration: i32,
    pub location: Option<String>,
    pub meeting_type: String,
    pub agenda: Option<String>,
    pub attendees: Option<String>,
    pub status: String,
    pub created_at: i64,
}

impl Db {
    pub async fn seed_companies(&self, rows: &[CompanySeed]) -> Result<(), sqlx::Error> {
        dispatch!(self, seed_companies(rows))
    }
    pub async fn seed_contacts(&self, rows: &[ContactSeed]) -> Result<(), sqlx::Error> {
        dispatch!(self, seed_contacts(rows))
    }
    pub async fn seed_deals(&self, rows: &[DealSeed]) -> Result<(), sqlx::Error> {
        dispatch!(self, seed_deals(rows))
    }
    pub async fn seed_meetings(&self, rows: &[MeetingSeed]) -> Result<(), sqlx::Error> {
        dispatch!(self, seed_meetings(rows))
    }
    /// Whether the CRM tables hold anything (demo data goes only into an empty CRM).
    pub async fn crm_is_empty(&self) -> Result<bool, sqlx::Error> {
        dispatch!(self, crm_is_empty())
    }
}
