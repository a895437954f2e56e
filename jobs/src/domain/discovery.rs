//! What a discovery search finds: companies with their decision makers, as any provider reports
//! them and as the database stores them.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundContact {
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub department: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub linkedin_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundCompany {
    pub name: String,
    pub industry: Option<String>,
    pub company_type: Option<String>,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub description: Option<String>,
    pub growth_rate: Option<f64>,
    pub contacts: Vec<FoundContact>,
}
