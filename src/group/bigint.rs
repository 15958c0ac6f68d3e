//! A small arbitrary-precision unsigned integer: just what group orders and state
//! counts need (products, exact quotients, comparison, decimal printing). Megaminx-sized
//! groups overflow `u128`, and we keep the dependency list short, so we carry our own.

use std::cmp::Ordering;
use std::fmt;

/// An unsigned integer of any size, stored as little-endian 32-bit limbs with no
/// trailing zero limbs (zero is the empty vector), so equal values compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    /// Zero.
    pub fn zero() -> BigUint {
        BigUint { limbs: Vec::new() }
    }

    /// One.
    pub fn one() -> BigUint {
        BigUint::from(1u64)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// Multiplies in place by a machine word.
    pub fn mul_u64(&mut self, m: u64) {
        if m == 0 {
            self.limbs.clear();
            return;
        }
        let mut carry: u128 = 0;
        for limb in &mut self.limbs {
            let t = *limb as u128 * m as u128 + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        while carry != 0 {
            self.limbs.push(carry as u32);
            carry >>= 32;
        }
    }

    /// The product `self * other`.
    pub fn mul(&self, other: &BigUint) -> BigUint {
        if self.is_zero() || other.is_zero() {
            return BigUint::zero();
        }
        let mut out = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry: u64 = 0;
            for (j, &b) in other.limbs.iter().enumerate() {
                let t = a as u64 * b as u64 + out[i + j] as u64 + carry;
                out[i + j] = t as u32;
                carry = t >> 32;
            }
            let mut k = i + other.limbs.len();
            while carry != 0 {
                let t = out[k] as u64 + carry;
                out[k] = t as u32;
                carry = t >> 32;
                k += 1;
            }
        }
        let mut r = BigUint { limbs: out };
        r.trim();
        r
    }

    /// The sum `self + other`.
    pub fn add(&self, other: &BigUint) -> BigUint {
        let n = self.limbs.len().max(other.limbs.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let a = self.limbs.get(i).copied().unwrap_or(0) as u64;
            let b = other.limbs.get(i).copied().unwrap_or(0) as u64;
            let t = a + b + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        if carry != 0 {
            out.push(carry as u32);
        }
        BigUint { limbs: out }
    }

    /// Quotient and remainder by a non-zero machine word.
    pub fn div_rem_u64(&self, d: u64) -> Option<(BigUint, u64)> {
        if d == 0 {
            return None;
        }
        let mut q = vec![0u32; self.limbs.len()];
        let mut rem: u128 = 0;
        for i in (0..self.limbs.len()).rev() {
            rem = (rem << 32) | self.limbs[i] as u128;
            q[i] = (rem / d as u128) as u32;
            rem %= d as u128;
        }
        let mut q = BigUint { limbs: q };
        q.trim();
        Some((q, rem as u64))
    }

    /// The number of significant bits (0 for zero).
    pub fn bits(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(&top) => (self.limbs.len() as u64 - 1) * 32 + (32 - top.leading_zeros() as u64),
        }
    }

    fn bit(&self, i: u64) -> bool {
        let limb = (i / 32) as usize;
        limb < self.limbs.len() && (self.limbs[limb] >> (i % 32)) & 1 == 1
    }

    fn set_bit(&mut self, i: u64) {
        let limb = (i / 32) as usize;
        if self.limbs.len() <= limb {
            self.limbs.resize(limb + 1, 0);
        }
        self.limbs[limb] |= 1 << (i % 32);
    }

    /// Shifts left by one bit and sets the low bit to `b`.
    fn shl1_with(&mut self, b: bool) {
        let mut carry = b as u32;
        for limb in &mut self.limbs {
            let next = *limb >> 31;
            *limb = (*limb << 1) | carry;
            carry = next;
        }
        if carry != 0 {
            self.limbs.push(carry);
        }
    }

    /// Subtracts `other` in place; the caller guarantees `other <= self`.
    fn sub_assign(&mut self, other: &BigUint) {
        let mut borrow = 0i64;
        for i in 0..self.limbs.len() {
            let b = other.limbs.get(i).copied().unwrap_or(0) as i64;
            let mut t = self.limbs[i] as i64 - b - borrow;
            borrow = 0;
            if t < 0 {
                t += 1 << 32;
                borrow = 1;
            }
            self.limbs[i] = t as u32;
        }
        self.trim();
    }

    /// Quotient and remainder by a non-zero divisor. Plain binary long division: the
    /// numbers here have a few hundred bits, so this costs microseconds.
    pub fn div_rem(&self, d: &BigUint) -> Option<(BigUint, BigUint)> {
        if d.is_zero() {
            return None;
        }
        if d.limbs.len() <= 2 {
            let dv = d.to_u128().unwrap_or(0) as u64;
            let (q, r) = self.div_rem_u64(dv)?;
            return Some((q, BigUint::from(r)));
        }
        let mut q = BigUint::zero();
        let mut r = BigUint::zero();
        for i in (0..self.bits()).rev() {
            r.shl1_with(self.bit(i));
            if r >= *d {
                r.sub_assign(d);
                q.set_bit(i);
            }
        }
        Some((q, r))
    }

    /// The value as a `u128`, when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.limbs.len() > 4 {
            return None;
        }
        Some(
            self.limbs
                .iter()
                .rev()
                .fold(0u128, |acc, &l| (acc << 32) | l as u128),
        )
    }

    /// The value as a `u64`, when it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// `n!`.
    pub fn factorial(n: u64) -> BigUint {
        let mut r = BigUint::one();
        for k in 2..=n {
            r.mul_u64(k);
        }
        r
    }

    /// `base^exp`.
    pub fn pow(base: u64, exp: u64) -> BigUint {
        let mut r = BigUint::one();
        for _ in 0..exp {
            r.mul_u64(base);
        }
        r
    }

    /// The decimal digits with a comma between groups of three, as the counts are
    /// usually quoted (43,252,003,274,489,856,000).
    pub fn with_commas(&self) -> String {
        let digits = self.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    }

    /// The number these decimal digits write (`None` for anything but digits).
    pub fn from_decimal(digits: &str) -> Option<BigUint> {
        if digits.is_empty() {
            return None;
        }
        let mut n = BigUint::zero();
        for c in digits.chars() {
            let d = c.to_digit(10)?;
            n.mul_u64(10);
            n = n.add(&BigUint::from(d as u64));
        }
        Some(n)
    }
}

impl From<u64> for BigUint {
    fn from(v: u64) -> BigUint {
        BigUint::from(v as u128)
    }
}

impl From<u128> for BigUint {
    fn from(mut v: u128) -> BigUint {
        let mut limbs = Vec::new();
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        BigUint { limbs }
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &BigUint) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &BigUint) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for BigUint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.pad("0");
        }
        // Peel off nine decimal digits at a time; the chunks come out low first.
        const CHUNK: u64 = 1_000_000_000;
        let mut chunks = Vec::new();
        let mut v = self.clone();
        while !v.is_zero() {
            let (q, r) = v.div_rem_u64(CHUNK).unwrap_or_default();
            chunks.push(r);
            v = q;
        }
        let mut s = chunks.pop().unwrap_or(0).to_string();
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:09}"));
        }
        f.pad(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::BigUint;
    use proptest::prelude::*;

    #[test]
    fn factorials_print_in_decimal() {
        assert_eq!(BigUint::factorial(0).to_string(), "1");
        assert_eq!(BigUint::factorial(20).to_string(), "2432902008176640000");
        assert_eq!(
            BigUint::factorial(30).to_string(),
            "265252859812191058636308480000000"
        );
        assert_eq!(BigUint::zero().to_string(), "0");
        assert_eq!(BigUint::from(1234567u64).with_commas(), "1,234,567");
        assert_eq!(BigUint::from(123u64).with_commas(), "123");
    }

    #[test]
    fn decimal_digits_read_back() {
        let n = BigUint::factorial(30);
        assert_eq!(BigUint::from_decimal(&n.to_string()), Some(n));
        assert_eq!(BigUint::from_decimal("0"), Some(BigUint::zero()));
        assert_eq!(BigUint::from_decimal(""), None);
        assert_eq!(BigUint::from_decimal("12a"), None);
        assert_eq!(BigUint::from_decimal("-1"), None);
    }

    #[test]
    fn big_division_is_exact() {
        let a = BigUint::factorial(40);
        let b = BigUint::factorial(25);
        let (q, r) = a.div_rem(&b).unwrap();
        assert!(r.is_zero());
        let mut expect = BigUint::one();
        for k in 26..=40 {
            expect.mul_u64(k);
        }
        assert_eq!(q, expect);
        assert_eq!(q.mul(&b), a);
        assert!(a.div_rem(&BigUint::zero()).is_none());
    }

    proptest! {
        #[test]
        fn matches_u128_arithmetic(a in any::<u64>(), b in any::<u64>(), c in 1u64..) {
            let p = BigUint::from(a).mul(&BigUint::from(b));
            prop_assert_eq!(p.to_u128(), Some(a as u128 * b as u128));
            prop_assert_eq!(p.to_string(), (a as u128 * b as u128).to_string());
            let (q, r) = p.div_rem(&BigUint::from(c)).unwrap();
            prop_assert_eq!(q.to_u128(), Some(a as u128 * b as u128 / c as u128));
            prop_assert_eq!(r.to_u128(), Some(a as u128 * b as u128 % c as u128));
            prop_assert_eq!(BigUint::from(a).cmp(&BigUint::from(b)), a.cmp(&b));
        }

        #[test]
        fn long_division_round_trips(a in any::<u128>(), b in any::<u128>(), c in 1u128..) {
            let n = BigUint::from(a).mul(&BigUint::from(b));
            let d = BigUint::from(c).mul(&BigUint::from(c | 1 << 100));
            let (q, r) = n.div_rem(&d).unwrap();
            prop_assert!(r < d);
            prop_assert_eq!(q.mul(&d).add(&r), n);
        }
    }
}
