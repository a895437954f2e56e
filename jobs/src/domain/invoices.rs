//! Invoices (seed 002 §3–§5, §9): money in whole cents throughout, totals computed here, never
//! taken from the client. Tax applies after the discount.

/// Statuses an invoice can have; a paid one is final.
pub const STATUSES: [&str; 4] = ["draft", "sent", "paid", "overdue"];
/// Default tax rate, in thousandths of a percent (8.5 %).
pub const DEFAULT_TAX_MILLI: i64 = 8_500;
/// Days from the invoice date to the due date by default.
pub const DUE_DAYS: i64 = 30;
/// The seed's demo allowed 3 line items; a real invoice may have many, within reason.
pub const MAX_LINE_ITEMS: usize = 200;

/// The prefix of a year's invoice numbers: `INV-2026-`.
pub fn number_prefix(year: i32) -> String {
    format!("INV-{year}-")
}

/// The number after the highest of a year's series (`INV-2026-0001`, `-0002`, …; four digits,
/// more once past 9,999). Numbers a user typed that do not end in digits are not part of it.
pub fn next_number<'a>(year: i32, taken: impl IntoIterator<Item = &'a str>) -> String {
    let prefix = number_prefix(year);
    let last = taken
        .into_iter()
        .filter_map(|n| n.strip_prefix(prefix.as_str()))
        .filter(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|rest| rest.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    format!("{prefix}{:04}", last.saturating_add(1))
}

/// A decimal amount of dollars ("19.99", 19.99, 20) as cents; at most two decimals, not negative.
pub fn cents(text: &str) -> Option<i64> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || frac.len() > 2
        || whole.len() > 13
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: i64 = format!("{frac:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(frac)
}

/// A percentage ("8.5", 8.5) as thousandths of a percent, from 0 to 100 with at most three decimals.
pub fn tax_milli(text: &str) -> Option<i64> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty()
        || whole.len() > 3
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || frac.len() > 3
    {
        return None;
    }
    let milli = whole.parse::<i64>().ok()? * 1000 + format!("{frac:0<3}").parse::<i64>().ok()?;
    (milli <= 100_000).then_some(milli)
}

/// Cents as dollars with two decimals ("1234.50").
pub fn dollars(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Totals {
    pub subtotal: i64,
    pub discount: i64,
    pub tax: i64,
    pub total: i64,
}

/// Lines are (quantity, unit price in cents). The discount cannot take the total below zero; tax is
/// on what remains, rounded half up to the cent.
pub fn totals(lines: &[(i64, i64)], discount: i64, tax_milli: i64) -> Option<Totals> {
    let mut subtotal: i64 = 0;
    for (qty, unit) in lines {
        subtotal = subtotal.checked_add(qty.checked_mul(*unit)?)?;
    }
    let discount = discount.min(subtotal);
    let taxable = i128::from(subtotal - discount);
    let tax = i64::try_from((taxable * i128::from(tax_milli) + 50_000) / 100_000).ok()?;
    Some(Totals {
        subtotal,
        discount,
        tax,
        total: (subtotal - discount).checked_add(tax)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_parsed_to_the_cent_and_never_through_floats() {
        assert_eq!(cents("19.99"), Some(1999));
        assert_eq!(cents("0.1"), Some(10));
        assert_eq!(cents("20"), Some(2000));
        assert_eq!(cents(".5"), Some(50));
        for bad in ["", ".", "1.999", "-1", "1e3", "abc", "12345678901234"] {
            assert_eq!(cents(bad), None, "{bad}");
        }
        assert_eq!(tax_milli("8.5"), Some(8500));
        assert_eq!(tax_milli("100"), Some(100_000));
        assert_eq!(tax_milli("100.001"), None);
        assert_eq!(dollars(123_450), "1234.50");
        assert_eq!(dollars(5), "0.05");
    }

    #[test]
    fn numbers_run_per_year_in_order_and_skip_typed_ones() {
        assert_eq!(next_number(2026, []), "INV-2026-0001");
        let taken = [
            "INV-2026-0001",
            "INV-2026-0009",
            "INV-2026-0010",
            "INV-2026-ABC",
            "INV-2025-0042",
        ];
        assert_eq!(next_number(2026, taken), "INV-2026-0011");
        assert_eq!(next_number(2025, taken), "INV-2025-0043");
        assert_eq!(next_number(2026, ["INV-2026-9999"]), "INV-2026-10000");
        assert_eq!(next_number(2026, ["INV-2026-"]), "INV-2026-0001");
    }

    #[test]
    fn tax_comes_after_the_discount_and_rounds_half_up() {
        // 3 × $19.99 + 1 × $100 = $159.97; minus $10 = $149.97; 8.5 % = $12.74745 → $12.75.
        let t = totals(&[(3, 1999), (1, 10_000)], 1000, 8500).unwrap_or(Totals {
            subtotal: 0,
            discount: 0,
            tax: 0,
            total: 0,
        });
        assert_eq!(
            (t.subtotal, t.discount, t.tax, t.total),
            (15_997, 1000, 1275, 16_272)
        );
        let capped = totals(&[(1, 500)], 900, 8500).map(|t| (t.discount, t.tax, t.total));
        assert_eq!(
            capped,
            Some((500, 0, 0)),
            "a discount above the subtotal leaves zero"
        );
    }
}
